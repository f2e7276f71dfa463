package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.AttemptEnd;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The parts of the attempt history both stores write alike: how a lease's entry ends, who a
 * redrive's entry names, and what a stale-token rejection says.
 */
public final class AttemptHistory {
  /** The worker id on a redrive's history entry: an operator, not a worker, started the life. */
  public static final String REDRIVE_WORKER_ID = "admin";

  /**
   * Ends the running entry of one lease. Parameter 1, {@code ended_at}, is the store's encoding of
   * the time; {@link #bindEnd} binds the others.
   */
  public static final String END =
      "UPDATE attempts SET ended_at = ?, outcome = ?, error_kind = ?, error_type = ?,"
          + " error_message = ?, stack_trace = ?"
          + " WHERE job_id = ? AND fencing_token = ? AND outcome = 'RUNNING'";

  /**
   * Finds whether the lease with this token ended by its holder's own report (completed, failed,
   * released, cancelled), rather than by expiry or a takeover. Parameters: job id, fencing token,
   * worker id; bound by {@link #endedByItsHolder}.
   */
  public static final String ENDED_BY_HOLDER =
      "SELECT 1 FROM attempts WHERE job_id = ? AND fencing_token = ? AND worker_id = ?"
          + " AND outcome IN ('SUCCEEDED', 'FAILED_RETRYABLE', 'FAILED_PERMANENT', 'RELEASED',"
          + " 'CANCELLED') LIMIT 1";

  private AttemptHistory() {}

  /**
   * Whether the lease with this token ended by its holder's own report. A heartbeat of that lease
   * crossed the holder's own last report on the way: it is answered LOST, but it claimed nothing
   * stale, so it is not recorded as a rejection.
   *
   * @param select a statement of {@link #ENDED_BY_HOLDER}
   */
  public static boolean endedByItsHolder(
      PreparedStatement select, long jobId, long fencingToken, String workerId)
      throws SQLException {
    select.setLong(1, jobId);
    select.setLong(2, fencingToken);
    select.setString(3, workerId);
    try (ResultSet row = select.executeQuery()) {
      return row.next();
    }
  }

  /**
   * Binds every parameter of {@link #END} but the first: the outcome, the failure's fields (or only
   * the message, when there is no failure), and which lease's entry.
   */
  public static void bindEnd(
      PreparedStatement update, long jobId, long fencingToken, AttemptEnd end) throws SQLException {
    Failure failure = end.failure();
    update.setString(2, end.outcome().name());
    update.setString(3, failure == null ? null : failure.kind().name());
    update.setString(4, failure == null ? null : failure.errorType());
    update.setString(5, failure == null ? end.message() : failure.message());
    update.setString(6, failure == null ? null : failure.stackTrace());
    update.setLong(7, jobId);
    update.setLong(8, fencingToken);
  }

  /** The error message of a {@code STALE_COMPLETION_REJECTED} entry. */
  public static String staleTokenMessage(Job job, long fencingToken, String action) {
    if (job.lease() != null && job.lease().fencingToken() == fencingToken) {
      // The token is current: the worker id or the lease id did not match (never shown).
      return action + " with fencing token " + fencingToken + " by another holder or lease id";
    }
    String current =
        job.lease() == null
            ? "the job is " + job.state()
            : "the current token is " + job.lease().fencingToken();
    return action + " with stale fencing token " + fencingToken + "; " + current;
  }
}
