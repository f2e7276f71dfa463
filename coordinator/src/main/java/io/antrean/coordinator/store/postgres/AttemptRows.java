package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.AttemptEnd;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.jdbc.AttemptHistory;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Writes the attempt history: one row per lease (opened by the lease statement itself, see {@link
 * LeaseWrites}), ended when the lease ends; plus rows for stale-token rejections and redrives.
 */
final class AttemptRows {
  private static final String INSERT_ENDED =
      "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at, ended_at,"
          + " outcome, error_type, error_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
  // The stale lease's start when the history still knows it, else now.
  private static final String INSERT_STALE =
      "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at, ended_at,"
          + " outcome, error_type, error_message)"
          + " SELECT ?, ?, ?, ?, coalesce((SELECT leased_at FROM attempts"
          + " WHERE job_id = ? AND fencing_token = ? ORDER BY id LIMIT 1), ?), ?,"
          + " 'STALE_COMPLETION_REJECTED', 'LEASE_LOST', ?";

  private AttemptRows() {}

  /** Ends the running entry of the lease with this token. */
  static void ended(Tx tx, long jobId, long fencingToken, AttemptEnd end, Instant now)
      throws SQLException {
    PreparedStatement update = tx.prepare(AttemptHistory.END);
    Timestamps.set(update, 1, now);
    AttemptHistory.bindEnd(update, jobId, fencingToken, end);
    update.executeUpdate();
  }

  /**
   * Records a redrive: not an attempt but the start of the job's next life, so it carries attempt
   * 0, the operator as its worker, the job's current fencing token, and starts and ends at {@code
   * now}.
   */
  static void redriven(Tx tx, long jobId, long fencingToken, Instant now) throws SQLException {
    PreparedStatement insert = tx.prepare(INSERT_ENDED);
    insert.setLong(1, jobId);
    insert.setInt(2, 0);
    insert.setString(3, AttemptHistory.REDRIVE_WORKER_ID);
    insert.setLong(4, fencingToken);
    Timestamps.set(insert, 5, now);
    Timestamps.set(insert, 6, now);
    insert.setString(7, AttemptOutcome.REDRIVEN.name());
    insert.setString(8, null);
    insert.setString(9, null);
    insert.executeUpdate();
  }

  /**
   * Records that a worker presented a token that is not the job's current lease. The entry carries
   * the job's current attempts counter, the presenting worker and token, and the start of that
   * stale lease when the history still knows it.
   */
  static void staleRejected(
      Tx tx, Job job, String workerId, long fencingToken, String action, Instant now)
      throws SQLException {
    PreparedStatement insert = tx.prepare(INSERT_STALE);
    insert.setLong(1, job.id());
    insert.setInt(2, job.attempts());
    insert.setString(3, workerId);
    insert.setLong(4, fencingToken);
    insert.setLong(5, job.id());
    insert.setLong(6, fencingToken);
    Timestamps.set(insert, 7, now);
    Timestamps.set(insert, 8, now);
    insert.setString(9, AttemptHistory.staleTokenMessage(job, fencingToken, action));
    insert.executeUpdate();
  }
}
