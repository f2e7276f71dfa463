package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.jdbc.JobListings;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The read side of the dead-letter queue, on a read connection. Listing walks the partial index
 * {@code jobs_dead_letters} (FAILED ids) backwards, or {@code jobs_queue_state} when a queue is
 * given, so a page costs the same however many finished jobs the table holds; the growth count
 * walks {@code jobs_finished} from {@code since} on.
 */
final class DeadLetterReads {
  static final String GROUPS_SINCE =
      "SELECT queue, type, last_error, count(*) AS jobs FROM jobs INDEXED BY jobs_finished"
          + " WHERE state = 'FAILED' AND finished_at >= ?"
          + " GROUP BY queue, type, last_error ORDER BY jobs DESC, queue, type, last_error";

  private DeadLetterReads() {}

  static JobPage list(CachedConnection connection, DeadLetterQuery query) throws SQLException {
    List<Object> parameters = new ArrayList<>();
    return JobReads.page(connection, listSql(query, parameters), parameters, query.limit());
  }

  /** The SELECT of one page for the query; its parameters are added to {@code parameters}. */
  static String listSql(DeadLetterQuery query, List<Object> parameters) {
    return JobListings.deadLettersSql(
        query, parameters, "instr(" + CaseFolding.FUNCTION + "(last_error), ?) > 0", Micros::ceil);
  }

  static List<DeadLetterGroup> groupsSince(CachedConnection connection, Instant since)
      throws SQLException {
    PreparedStatement select = connection.prepare(GROUPS_SINCE);
    select.setLong(1, Micros.ceil(since));
    return JobListings.deadLetterGroups(select);
  }
}
