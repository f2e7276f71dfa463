package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.AttemptEnd;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.jdbc.AttemptHistory;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import javax.annotation.Nullable;

/** Writes the attempt history: one row per lease, ended when the lease ends. */
final class AttemptRows {
  private static final String INSERT =
      "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at, ended_at,"
          + " outcome, error_kind, error_type, error_message, stack_trace)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String LEASED_AT =
      "SELECT leased_at FROM attempts WHERE job_id = ? AND fencing_token = ? ORDER BY id LIMIT 1";

  private AttemptRows() {}

  /** Opens the history entry of a lease just granted. */
  static void started(CachedConnection connection, Job leased, Instant now) throws SQLException {
    insert(
        connection,
        leased.id(),
        leased.attempts(),
        leased.lease().workerId(),
        leased.lease().fencingToken(),
        Micros.of(now),
        null,
        AttemptOutcome.RUNNING,
        null,
        null);
  }

  /** Ends the running entry of the lease with this token. */
  static void ended(
      CachedConnection connection, long jobId, long fencingToken, AttemptEnd end, Instant now)
      throws SQLException {
    PreparedStatement update = connection.prepare(AttemptHistory.END);
    update.setLong(1, Micros.of(now));
    AttemptHistory.bindEnd(update, jobId, fencingToken, end);
    update.executeUpdate();
  }

  /**
   * Records a redrive: not an attempt but the start of the job's next life, so it carries attempt
   * 0, the operator as its worker, the job's current fencing token, and starts and ends at {@code
   * now}.
   */
  static void redriven(CachedConnection connection, long jobId, long fencingToken, Instant now)
      throws SQLException {
    insert(
        connection,
        jobId,
        0,
        AttemptHistory.REDRIVE_WORKER_ID,
        fencingToken,
        Micros.of(now),
        Micros.of(now),
        AttemptOutcome.REDRIVEN,
        null,
        null);
  }

  /**
   * Records that a worker presented a token that is not the job's current lease. The entry carries
   * the job's current attempts counter, the presenting worker and token, and the start of that
   * stale lease when the history still knows it.
   */
  static void staleRejected(
      CachedConnection connection,
      Job job,
      String workerId,
      long fencingToken,
      String action,
      Instant now)
      throws SQLException {
    PreparedStatement select = connection.prepare(LEASED_AT);
    select.setLong(1, job.id());
    select.setLong(2, fencingToken);
    long leasedAt = Micros.of(now);
    try (var rows = select.executeQuery()) {
      if (rows.next()) {
        leasedAt = rows.getLong(1);
      }
    }
    insert(
        connection,
        job.id(),
        job.attempts(),
        workerId,
        fencingToken,
        leasedAt,
        Micros.of(now),
        AttemptOutcome.STALE_COMPLETION_REJECTED,
        "LEASE_LOST",
        AttemptHistory.staleTokenMessage(job, fencingToken, action));
  }

  private static void insert(
      CachedConnection connection,
      long jobId,
      int attempt,
      String workerId,
      long fencingToken,
      long leasedAtMicros,
      @Nullable Long endedAtMicros,
      AttemptOutcome outcome,
      @Nullable String errorType,
      @Nullable String errorMessage)
      throws SQLException {
    PreparedStatement insert = connection.prepare(INSERT);
    insert.setLong(1, jobId);
    insert.setInt(2, attempt);
    insert.setString(3, workerId);
    insert.setLong(4, fencingToken);
    insert.setLong(5, leasedAtMicros);
    JobRows.setNullableLong(insert, 6, endedAtMicros);
    insert.setString(7, outcome.name());
    insert.setNull(8, Types.VARCHAR);
    insert.setString(9, errorType);
    insert.setString(10, errorMessage);
    insert.setNull(11, Types.VARCHAR);
    insert.executeUpdate();
  }
}
