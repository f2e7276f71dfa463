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
    if (delay.compareTo(TimeRanges.MAX_BACKOFF) > 0) {
      delay = TimeRanges.MAX_BACKOFF;
    }
    return Optional.of(TimeRanges.plus(now, delay));
  }

  /**
   * The jittered delay after the given failed handler attempt (1 for the first).
   *
   * @return a duration in [0, cap], where cap = min(maxBackoff, initial * multiplier^(attempt-1),
   *     365 days); the arithmetic saturates, so any stored policy gives a delay
   */
  public Duration delay(RetryPolicy policy, int failedAttempt) {
    double capNanos = cap(policy, failedAttempt);
    return Duration.ofNanos((long) (random.getAsDouble() * capNanos));
  }

  /** The upper bound of the delay after the given failed attempt, in nanoseconds; never NaN. */
  static double cap(RetryPolicy policy, int failedAttempt) {
    double initial = TimeRanges.saturatedNanos(policy.initialBackoff());
    double growth = Math.pow(policy.multiplier(), Math.max(0, failedAttempt - 1));
    // 0 * Infinity is NaN: a zero initial backoff stays zero however large the growth.
    double exp = initial == 0 ? 0 : initial * growth;
    double limit =
        Math.min(
            (double) TimeRanges.saturatedNanos(policy.maxBackoff()),
            (double) TimeRanges.MAX_BACKOFF.toNanos());
    return Double.isNaN(exp) ? limit : Math.min(exp, limit);
  }
}
