package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobMove;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseEnd;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The row updates that move a job out of PENDING or RUNNING. Each returns the job as it is after
 * the update. They check nothing: callers decided, under the job's row lock or on the only writer,
 * that the move is allowed.
 */
public final class JobTransitions {
  private static final String LEAVE_START =
      "UPDATE jobs SET state = ?, run_at = coalesce(?, run_at),"
          + " last_error = coalesce(?, last_error),";
  private static final String LEAVE_END =
      " lease_expiries = lease_expiries + ?, releases = releases + ?,"
          + " finished_at = ?, updated_at = ?,"
          + " lease_worker_id = NULL, lease_expires_at = NULL"
          + " WHERE id = ? RETURNING "
          + JobRowReader.JOB_COLUMNS;
  private static final String LEAVE = LEAVE_START + LEAVE_END;
  private static final String LEAVE_FOLDING =
      LEAVE_START + " last_error_folded = coalesce(?, last_error_folded)," + LEAVE_END;
  private static final String REQUEST_CANCEL =
      "UPDATE jobs SET cancel_requested = true, updated_at = ? WHERE id = ? RETURNING "
          + JobRowReader.JOB_COLUMNS;

  private JobTransitions() {}

  /**
   * Applies the move and clears the lease. A terminal state sets {@code finished_at}; the fencing
   * token stays, so the next lease's token is higher still. A move to PENDING announces the queue.
   */
  public static Job apply(JdbcSession session, long jobId, JobMove move, Instant now)
      throws SQLException {
    JdbcDialect dialect = session.dialect();
    boolean folding = dialect.storesFoldedError();
    PreparedStatement update = session.prepare(folding ? LEAVE_FOLDING : LEAVE);
    int index = 1;
    update.setString(index++, move.to().name());
    dialect.setNullableInstant(update, index++, move.runAt());
    update.setString(index++, move.lastError());
    if (folding) {
      update.setString(index++, move.lastError() == null ? null : ErrorText.fold(move.lastError()));
    }
    update.setInt(index++, move.leaseExpiriesDelta());
    update.setInt(index++, move.releasesDelta());
    dialect.setNullableInstant(update, index++, move.to().isTerminal() ? now : null);
    dialect.setInstant(update, index++, now);
    update.setLong(index, jobId);
    Job after = JobRows.single(session, update, jobId);
    if (after.state() == JobState.PENDING) {
      session.jobsReady(after.queue());
    } else if (after.state() == JobState.FAILED || after.state() == JobState.CANCELLED) {
      Dependencies.ended(session, after, now);
    }
    return after;
  }

  /** Ends the lease with this token: applies the end's move and ends the lease's attempt. */
  public static Job endLease(
      JdbcSession session, long jobId, long fencingToken, LeaseEnd end, Instant now)
      throws SQLException {
    Job after = apply(session, jobId, end.move(), now);
    AttemptRows.ended(session, jobId, fencingToken, end.attempt(), now);
    return after;
  }

  /** Flags a RUNNING job for its worker, who learns of it on its next heartbeat. */
  public static Job requestCancel(JdbcSession session, long jobId, Instant now)
      throws SQLException {
    PreparedStatement update = session.prepare(REQUEST_CANCEL);
    session.dialect().setInstant(update, 1, now);
    update.setLong(2, jobId);
    return JobRows.single(session, update, jobId);
  }
}
