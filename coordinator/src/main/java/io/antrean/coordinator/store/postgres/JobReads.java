package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.LeaseRef;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.jdbc.JobListings;
import io.antrean.coordinator.store.jdbc.QueueStats;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/** The read side: get, list, stats and running leases. Each answer comes from one snapshot. */
final class JobReads {
  // One statement, so the counts and the ready figures agree with each other.
  private static final String COUNTS =
      "SELECT queue, state, count(*),"
          + " count(*) FILTER (WHERE state = 'PENDING' AND run_at <= ?),"
          + " min(run_at) FILTER (WHERE state = 'PENDING' AND run_at <= ?)"
          + " FROM jobs%s GROUP BY queue, state";
  private static final String RUNNING_LEASES =
      "SELECT id, lease_token, lease_expires_at FROM jobs"
          + " WHERE state = 'RUNNING' ORDER BY lease_expires_at, id";

  private JobReads() {}

  static Optional<Job> get(Tx tx, long jobId) throws SQLException {
    Optional<Job> job = JobRows.find(tx, jobId);
    if (job.isEmpty()) {
      return job;
    }
    return Optional.of(job.get().withHistory(JobRows.history(tx, jobId)));
  }

  static JobPage list(Tx tx, JobQuery query) throws SQLException {
    List<Object> parameters = new ArrayList<>();
    String sql =
        JobListings.jobsSql(
            query, parameters, "strpos(last_error_folded, ?) > 0", Timestamps::ceil);
    return page(tx, sql, parameters, query.limit());
  }

  /** Runs a page SELECT of {@link JobListings} and cuts the answer into a page. */
  static JobPage page(Tx tx, String sql, List<Object> parameters, int limit) throws SQLException {
    PreparedStatement select = tx.prepare(sql);
    bind(select, parameters);
    return JobListings.page(JobRows.jobs(select), limit);
  }

  /** Binds the parameters in order; instants as timestamps. */
  static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
    for (int i = 0; i < parameters.size(); i++) {
      Object value = parameters.get(i);
      if (value instanceof Instant instant) {
        Timestamps.set(statement, i + 1, instant);
      } else {
        statement.setObject(i + 1, value);
      }
    }
  }

  static List<QueueCounts> stats(Tx tx, @Nullable String queue, Instant now) throws SQLException {
    QueueStats stats = new QueueStats(queue);
    PreparedStatement counts =
        tx.prepare(COUNTS.formatted(queue == null ? "" : " WHERE queue = ?"));
    Timestamps.set(counts, 1, now);
    Timestamps.set(counts, 2, now);
    if (queue != null) {
      counts.setString(3, queue);
    }
    try (ResultSet rows = counts.executeQuery()) {
      while (rows.next()) {
        String name = rows.getString(1);
        stats.count(name, JobState.valueOf(rows.getString(2)), rows.getLong(3));
        Instant oldest = Timestamps.get(rows, 5);
        if (oldest != null) {
          stats.ready(name, rows.getLong(4), oldest);
        }
      }
    }
    return stats.counts(now);
  }

  static List<LeaseRef> runningLeases(Tx tx) throws SQLException {
    List<LeaseRef> leases = new ArrayList<>();
    try (ResultSet rows = tx.prepare(RUNNING_LEASES).executeQuery()) {
      while (rows.next()) {
        leases.add(new LeaseRef(rows.getLong(1), rows.getLong(2), Timestamps.get(rows, 3)));
      }
    }
    return leases;
  }
}
