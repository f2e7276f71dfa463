package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.AttemptEnd;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Writes the attempt history: one row per lease, ended when the lease ends; plus rows for
 * stale-token rejections and redrives.
 */
public final class AttemptRows {
  private static final String INSERT =
      "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at, ended_at,"
          + " outcome, error_type, error_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
  // The stale lease's start when the history still knows it, else now. Written only while the job
  // is there, its key locked (JdbcDialect#lockKey) so that no deletion removes it meanwhile: some
  // callers read the job without a lock, and on PostgreSQL no foreign key keeps a row from
  // outliving its job (migration V17).
  private static final String INSERT_STALE =
      "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at, ended_at,"
          + " outcome, error_type, error_message)"
          + " SELECT id, ?, ?, ?, coalesce((SELECT leased_at FROM attempts"
          + " WHERE job_id = ? AND fencing_token = ? ORDER BY id LIMIT 1), ?), ?,"
          + " 'STALE_COMPLETION_REJECTED', 'LEASE_LOST', ? FROM jobs WHERE id = ?";

  private AttemptRows() {}

  /** Opens the history entry of a lease just granted. */
  public static void started(JdbcSession session, Job leased, Instant now) throws SQLException {
    insert(
        session,
        leased.id(),
        leased.attempts(),
        leased.lease().workerId(),
        leased.lease().fencingToken(),
        now,
        AttemptOutcome.RUNNING);
  }

  /** Ends the running entry of the lease with this token. */
  public static void ended(
      JdbcSession session, long jobId, long fencingToken, AttemptEnd end, Instant now)
      throws SQLException {
    PreparedStatement update = session.prepare(AttemptHistory.END);
    session.dialect().setInstant(update, 1, now);
    AttemptHistory.bindEnd(update, jobId, fencingToken, end);
    update.executeUpdate();
  }

  /**
   * Records a redrive: not an attempt but the start of the job's next life, so it carries attempt
   * 0, the operator as its worker, the job's current fencing token, and starts and ends at {@code
   * now}.
   */
  public static void redriven(JdbcSession session, long jobId, long fencingToken, Instant now)
      throws SQLException {
    insert(
        session,
        jobId,
        0,
        AttemptHistory.REDRIVE_WORKER_ID,
        fencingToken,
        now,
        AttemptOutcome.REDRIVEN);
  }

  /**
   * Records that a worker presented a token that is not the job's current lease. The entry carries
   * the job's current attempts counter, the presenting worker and token, and the start of that
   * stale lease when the history still knows it.
   */
  public static void staleRejected(
      JdbcSession session, Job job, String workerId, long fencingToken, String action, Instant now)
      throws SQLException {
    JdbcDialect dialect = session.dialect();
    PreparedStatement insert = session.prepare(INSERT_STALE + dialect.lockKey());
    insert.setInt(1, job.attempts());
    insert.setString(2, workerId);
    insert.setLong(3, fencingToken);
    insert.setLong(4, job.id());
    insert.setLong(5, fencingToken);
    dialect.setInstant(insert, 6, now);
    dialect.setInstant(insert, 7, now);
    insert.setString(8, AttemptHistory.staleTokenMessage(job, fencingToken, action));
    insert.setLong(9, job.id());
    insert.executeUpdate();
  }

  /** A RUNNING entry stays open (no end); a REDRIVEN one starts and ends at {@code at}. */
  private static void insert(
      JdbcSession session,
      long jobId,
      int attempt,
      String workerId,
      long fencingToken,
      Instant at,
      AttemptOutcome outcome)
      throws SQLException {
    JdbcDialect dialect = session.dialect();
    PreparedStatement insert = session.prepare(INSERT);
    insert.setLong(1, jobId);
    insert.setInt(2, attempt);
    insert.setString(3, workerId);
    insert.setLong(4, fencingToken);
    dialect.setInstant(insert, 5, at);
    dialect.setNullableInstant(insert, 6, outcome == AttemptOutcome.RUNNING ? null : at);
    insert.setString(7, outcome.name());
    insert.setString(8, null);
    insert.setString(9, null);
    insert.executeUpdate();
  }
}
