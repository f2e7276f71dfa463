package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.LeaseClaim;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * Whether a Complete or Fail whose token is no longer current repeats the holder's own report that
 * ended that lease: same job, same token, same lease id, same worker, same outcome. Its first
 * answer was lost on the way back, so it gets the same OK and changes nothing, not even the
 * history. Any difference (another result or failure, another worker, another token or lease id) is
 * a stale report as before.
 */
public final class RepeatedReports {
  /**
   * How the lease with this token ended, if its holder completed or failed it. Parameters: job id,
   * fencing token, worker id; bound by {@link #select}.
   */
  public static final String OWN_END =
      "SELECT outcome, error_kind, error_type, error_message, lease_id_sha256 FROM attempts"
          + " WHERE job_id = ? AND fencing_token = ? AND worker_id = ?"
          + " AND outcome IN ('SUCCEEDED', 'FAILED_RETRYABLE', 'FAILED_PERMANENT')"
          + " ORDER BY id LIMIT 1";

  private RepeatedReports() {}

  /**
   * Whether this completion repeats the one that made the job SUCCEEDED: that lease's holder
   * completed it with the same result and content type.
   *
   * @param ownEnd a statement of {@link #OWN_END}
   */
  public static boolean repeatsCompletion(
      PreparedStatement ownEnd,
      Job job,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType)
      throws SQLException {
    if (job.state() != JobState.SUCCEEDED
        || !sameResult(job.result(), job.resultContentType(), result, resultContentType)) {
      return false;
    }
    try (ResultSet row = select(ownEnd, job.id(), claim.fencingToken(), workerId)) {
      return row.next() && row.getString(1).equals("SUCCEEDED") && sameLeaseId(row, claim);
    }
  }

  /**
   * Whether a completion's result is the one a job was completed with: the same bytes (none and
   * empty alike) and content type.
   */
  public static boolean sameResult(
      @Nullable byte[] stored,
      @Nullable String storedContentType,
      @Nullable byte[] result,
      @Nullable String resultContentType) {
    return Arrays.equals(orEmpty(stored), orEmpty(result))
        && Objects.equals(storedContentType, resultContentType);
  }

  /**
   * Whether this failure repeats the one that ended the lease with this token: that lease's holder
   * failed it with the same kind, error type and message. The job may have moved on since (retried,
   * leased again, dead-lettered); the repeat changes none of that.
   *
   * @param ownEnd a statement of {@link #OWN_END}
   */
  public static boolean repeatsFailure(
      PreparedStatement ownEnd, long jobId, LeaseClaim claim, String workerId, Failure failure)
      throws SQLException {
    try (ResultSet row = select(ownEnd, jobId, claim.fencingToken(), workerId)) {
      return row.next()
          && sameLeaseId(row, claim)
          && !row.getString(1).equals("SUCCEEDED")
          && failure.kind().name().equals(row.getString(2))
          && Objects.equals(failure.errorType(), row.getString(3))
          && Objects.equals(failure.message(), row.getString(4));
    }
  }

  private static ResultSet select(
      PreparedStatement ownEnd, long jobId, long fencingToken, String workerId)
      throws SQLException {
    ownEnd.setLong(1, jobId);
    ownEnd.setLong(2, fencingToken);
    ownEnd.setString(3, workerId);
    return ownEnd.executeQuery();
  }

  /** The lease id of the row's lease against the claim's, in constant time; never for none. */
  private static boolean sameLeaseId(ResultSet row, LeaseClaim claim) throws SQLException {
    byte[] stored = row.getBytes(5);
    return stored != null
        && stored.length > 0
        && claim.matches(io.antrean.coordinator.job.LeaseId.stored(stored));
  }

  private static byte[] orEmpty(@Nullable byte[] bytes) {
    return bytes == null ? new byte[0] : bytes;
  }
}
