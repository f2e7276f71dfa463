package io.antrean.coordinator.core;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.RetryPlanner;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * The retry rule: a retryable failure with handler attempts left runs again after an exponential
 * backoff with full jitter (a uniform delay between zero and the capped exponential); a delay the
 * worker asked for wins. A permanent failure, or the last attempt, dead-letters the job.
 *
 * <p>Thread-safe when its random source is.
 */
public final class JitteredBackoff implements RetryPlanner {
  private final DoubleSupplier random;

  /**
   * @param random uniform numbers in [0, 1); tests pass a fixed sequence
   */
  public JitteredBackoff(DoubleSupplier random) {
    this.random = random;
  }

  @Override
  public Optional<Instant> nextRunAt(Job job, Failure failure, Instant now) {
    if (failure.kind() == ErrorKind.PERMANENT
        || job.handlerAttempts() >= job.retryPolicy().maxAttempts()) {
      return Optional.empty();
    }
    Duration delay =
        failure.retryAfter() != null && !failure.retryAfter().isNegative()
            ? failure.retryAfter()
            : delay(job.retryPolicy(), job.handlerAttempts());
    return Optional.of(now.plus(delay));
  }

  /**
   * The jittered delay after the given failed handler attempt (1 for the first).
   *
   * @return a duration in [0, cap], where cap = min(maxBackoff, initial * multiplier^(attempt-1))
   */
  public Duration delay(RetryPolicy policy, int failedAttempt) {
    double capNanos = cap(policy, failedAttempt);
    return Duration.ofNanos((long) (random.getAsDouble() * capNanos));
  }

  /** The upper bound of the delay after the given failed attempt, in nanoseconds. */
  static double cap(RetryPolicy policy, int failedAttempt) {
    double exp =
        policy.initialBackoff().toNanos()
            * Math.pow(policy.multiplier(), Math.max(0, failedAttempt - 1));
    return Math.min(exp, (double) policy.maxBackoff().toNanos());
  }
}
