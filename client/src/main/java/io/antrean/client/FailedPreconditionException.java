package io.antrean.client;

import io.grpc.Status;
import javax.annotation.Nullable;

/**
 * The coordinator refused the call because the thing it names is not in a state that allows it
 * ({@code FAILED_PRECONDITION}). Repeating the call unchanged fails the same way until that state
 * changes, so it is not {@linkplain #isRetryable() retryable}.
 *
 * <p>{@link #reason()} says which rule was broken; the reasons the coordinator sends are the
 * constants of this class, for example {@link #JOB_FINISHED} from {@link
 * AntreanClient#cancelJob(long)} and {@link #NOT_DEAD_LETTERED} from {@link DeadLetters#get(long)}.
 * Immutable and thread-safe.
 */
public class FailedPreconditionException extends AntreanException {
  /**
   * {@link AntreanClient#cancelJob(long)} of a job that already succeeded, failed or was cancelled.
   */
  public static final String JOB_FINISHED = "JOB_FINISHED";

  /** {@link DeadLetters#get(long)} of a job that exists but is not in the dead-letter queue. */
  public static final String NOT_DEAD_LETTERED = "NOT_DEAD_LETTERED";

  /** A worker presented a fencing token that is no longer current (workers only). */
  public static final String LEASE_LOST = "LEASE_LOST";

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param description the server's description; empty when it sent none
   * @param reason the {@code ErrorInfo} reason, or {@code null} when the server attached none
   * @param cause the gRPC exception this one translates, or {@code null}
   */
  public FailedPreconditionException(
      String description, @Nullable String reason, @Nullable Throwable cause) {
    super(Status.Code.FAILED_PRECONDITION, description, reason, cause);
  }

  /**
   * Whether the server gave {@code reason}, for example {@link #JOB_FINISHED}.
   *
   * @param reason the reason to compare with, case-sensitive
   */
  public boolean hasReason(String reason) {
    return reason().filter(reason::equals).isPresent();
  }
}
