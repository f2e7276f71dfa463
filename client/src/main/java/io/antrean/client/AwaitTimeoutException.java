package io.antrean.client;

import io.antrean.proto.v1.Job;
import io.grpc.Status;
import java.time.Duration;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * {@link AntreanClient#awaitTerminal} gave up: the job did not reach a terminal state within the
 * timeout. The job itself is untouched and may still end later; {@link #lastSeen()} is its last
 * snapshot, if one arrived. Its status code is {@code DEADLINE_EXCEEDED}. Immutable.
 */
public final class AwaitTimeoutException extends AntreanException {
  private static final long serialVersionUID = 1L;

  private final long jobId;
  @Nullable private final transient Job lastSeen;

  /**
   * @param lastSeen the last snapshot received, or null if none arrived
   * @param cause the failure that ended the last watch, or null
   */
  public AwaitTimeoutException(
      long jobId, Duration timeout, @Nullable Job lastSeen, @Nullable Throwable cause) {
    super(
        Status.Code.DEADLINE_EXCEEDED,
        "job " + jobId + " did not finish within " + timeout,
        "AWAIT_TIMEOUT",
        cause);
    this.jobId = jobId;
    this.lastSeen = lastSeen;
  }

  /** The job waited for. */
  public long jobId() {
    return jobId;
  }

  /** The last snapshot of the job received before giving up. */
  public Optional<Job> lastSeen() {
    return Optional.ofNullable(lastSeen);
  }

  /** True: the job may still finish, so waiting again may succeed. */
  @Override
  public boolean isRetryable() {
    return true;
  }
}
