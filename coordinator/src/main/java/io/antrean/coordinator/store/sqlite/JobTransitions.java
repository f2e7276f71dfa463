package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobMove;
import io.antrean.coordinator.job.LeaseEnd;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The row updates that move a job out of PENDING or RUNNING. Each returns the job as it is after
 * the update. They check nothing: callers decide inside the writer's transaction, where nobody else
 * writes, that the move is allowed.
 */
final class JobTransitions {
  private static final String LEAVE =
      "UPDATE jobs SET state = ?, run_at = coalesce(?, run_at),"
          + " last_error = coalesce(?, last_error), lease_expiries = lease_expiries + ?,"
          + " releases = releases + ?, finished_at = ?, updated_at = ?,"
          + " lease_worker_id = NULL, lease_expires_at = NULL"
          + " WHERE id = ? RETURNING "
          + JobRowReader.JOB_COLUMNS;
  private static final String SUCCEED =
      "UPDATE jobs SET state = 'SUCCEEDED', result = ?, result_content_type = ?,"
          + " finished_at = ?, updated_at = ?, lease_worker_id = NULL, lease_expires_at = NULL"
          + " WHERE id = ? AND state = 'RUNNING' AND lease_token = ? AND lease_worker_id = ?"
          + " RETURNING "
          + JobRowReader.JOB_COLUMNS;
  private static final String REQUEST_CANCEL =
      "UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE id = ? RETURNING "
          + JobRowReader.JOB_COLUMNS;

  private JobTransitions() {}

  /**
   * Applies the move and clears the lease. A terminal state sets {@code finished_at}; the fencing
   * token stays, so the next lease's token is higher still.
   */
  static Job apply(CachedConnection connection, long jobId, JobMove move, Instant now)
      throws SQLException {
    PreparedStatement update = connection.prepare(LEAVE);
    update.setString(1, move.to().name());
    JobRows.setNullableLong(update, 2, Micros.ofNullable(move.runAt()));
    update.setString(3, move.lastError());
    update.setInt(4, move.leaseExpiriesDelta());
    update.setInt(5, move.releasesDelta());
    JobRows.setNullableLong(update, 6, move.to().isTerminal() ? Micros.of(now) : null);
    update.setLong(7, Micros.of(now));
    update.setLong(8, jobId);
    return JobRows.single(update);
  }

  /** Ends the lease with this token: applies the end's move and ends the lease's attempt. */
  static Job endLease(
      CachedConnection connection, long jobId, long fencingToken, LeaseEnd end, Instant now)
      throws SQLException {
    Job after = apply(connection, jobId, end.move(), now);
    AttemptRows.ended(connection, jobId, fencingToken, end.attempt(), now);
    return after;
  }

  /**
   * Completes the job if it still runs under this token, held by this worker, in one statement (the
   * hot path needs no read first).
   *
   * @return the job after the change, or empty if the job is missing or not held with the token
   */
  static Optional<Job> succeed(
      CachedConnection connection,
      long jobId,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      throws SQLException {
    PreparedStatement update = connection.prepare(SUCCEED);
    update.setBytes(1, result);
    update.setString(2, resultContentType);
    update.setLong(3, Micros.of(now));
    update.setLong(4, Micros.of(now));
    update.setLong(5, jobId);
    update.setLong(6, fencingToken);
    update.setString(7, workerId);
    List<Job> changed = JobRows.jobs(update);
    return changed.isEmpty() ? Optional.empty() : Optional.of(changed.get(0));
  }

  static Job requestCancel(CachedConnection connection, long jobId, Instant now)
      throws SQLException {
    PreparedStatement update = connection.prepare(REQUEST_CANCEL);
    update.setLong(1, Micros.of(now));
    update.setLong(2, jobId);
    return JobRows.single(update);
  }
}
