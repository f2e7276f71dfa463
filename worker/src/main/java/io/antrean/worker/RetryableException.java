package io.antrean.worker;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Thrown by a {@link JobHandler} to fail the attempt as {@link FailureKind#RETRYABLE transient}:
 * the coordinator retries the job with backoff while it has attempts left. The default {@link
 * ErrorClassifier} honours it also when it is the cause of another exception.
 *
 * <p>A handler that knows when to try again (an HTTP 429 or 503 with {@code Retry-After}) passes
 * that delay as {@link #retryAfter()}; it wins over the coordinator's computed backoff.
 *
 * <p>Unchecked, so it can leave lambdas; immutable.
 */
public class RetryableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The delay the handler asked for, or null for the coordinator's backoff. */
  private final Duration retryAfter;

  /**
   * A retryable failure with the coordinator's usual backoff.
   *
   * @param message what went wrong; stored in the job's history
   */
  public RetryableException(String message) {
    this(message, null, null);
  }

  /**
   * A retryable failure caused by {@code cause}, with the coordinator's usual backoff.
   *
   * @param message what went wrong; stored in the job's history
   * @param cause the underlying error, or {@code null}
   */
  public RetryableException(String message, Throwable cause) {
    this(message, cause, null);
  }

  /**
   * A retryable failure that should not be retried before {@code retryAfter} has passed.
   *
   * @param message what went wrong; stored in the job's history
   * @param retryAfter the earliest retry, from now; not negative
   * @throws IllegalArgumentException if {@code retryAfter} is negative
   */
  public RetryableException(String message, Duration retryAfter) {
    this(message, null, Objects.requireNonNull(retryAfter, "retryAfter"));
  }

  /**
   * A retryable failure caused by {@code cause}, not to be retried before {@code retryAfter}.
   *
   * @param message what went wrong; stored in the job's history
   * @param cause the underlying error, or {@code null}
   * @param retryAfter the earliest retry from now, or {@code null} for the usual backoff
   * @throws IllegalArgumentException if {@code retryAfter} is negative
   */
  public RetryableException(String message, Throwable cause, Duration retryAfter) {
    super(message, cause);
    if (retryAfter != null && retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must not be negative: " + retryAfter);
    }
    this.retryAfter = retryAfter;
  }

  /**
   * The delay the handler asked for before the next attempt.
   *
   * @return the delay, or empty for the coordinator's computed backoff
   */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
