package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.ProducerWrites;
import io.antrean.coordinator.store.sqlite.young.YoungJobs;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

/**
 * Writes the young jobs into the database, each with its own id, as the rows a plain Enqueue would
 * have written, then forgets them ({@link YoungJobs#folded}) within the same group: a fold that
 * does not commit leaves them young. Runs where the writer's connection is held.
 */
final class YoungFolds {
  private static final ChunkedStatement INSERT = new ChunkedStatement(YoungFolds::insertSql);

  private YoungFolds() {}

  /** Writes every young job and forgets them; returns how many. */
  static int fold(JdbcSession session, YoungJobs young) throws SQLException {
    List<YoungJob> jobs = young.all();
    int from = 0;
    for (int size : ChunkedStatement.chunks(jobs.size())) {
      PreparedStatement insert = session.prepare(INSERT.sql(size));
      int index = 1;
      for (YoungJob j : jobs.subList(from, from + size)) {
        insert.setLong(index++, j.id());
        index = ProducerWrites.bindJob(session.dialect(), insert, index, j.job(), j.createdAt());
      }
      insert.executeUpdate();
      for (YoungJob j : jobs.subList(from, from + size)) {
        session.dialect().storePayloadApart(session, j.id(), j.job().payload());
      }
      from += size;
    }
    young.folded();
    return jobs.size();
  }

  /**
   * The id the next job stored will get: after every id the jobs' table ever held, AUTOINCREMENT's
   * high mark, which an insert with its own id raises too and a deleted job does not lower.
   */
  static long nextJobId(JdbcSession session) throws SQLException {
    try (ResultSet row =
        session.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'jobs'").executeQuery()) {
      return row.next() ? row.getLong(1) + 1 : 1;
    }
  }

  /** Parameters: each job's id, then its 17 ({@link ProducerWrites#bindJob}). */
  static String insertSql(int jobs) {
    String row = "(?, " + ProducerWrites.JOB_ROW.substring(1);
    return "INSERT INTO jobs (id, "
        + ProducerWrites.JOB_COLUMNS.substring(1)
        + " VALUES "
        + String.join(", ", Collections.nCopies(jobs, row));
  }
}
