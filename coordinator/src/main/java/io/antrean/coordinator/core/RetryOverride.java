package io.antrean.coordinator.core;

import io.antrean.coordinator.job.RetryPolicy;
import java.time.Duration;
import javax.annotation.Nullable;

/**
 * Some fields of a retry policy: a producer's overrides, or the retry defaults a config file gives
 * a job type or a queue. Null fields are not set, so layers combine per field: the request's over
 * the type's over the queue's over the built-in policy.
 */
public record RetryOverride(
    @Nullable Integer maxAttempts,
    @Nullable Duration initialBackoff,
    @Nullable Double multiplier,
    @Nullable Duration maxBackoff,
    @Nullable Integer maxLeaseExpiries) {

  /** No overrides. */
  public static final RetryOverride NONE = new RetryOverride(null, null, null, null, null);

  /** This layer over a lower one: per field, this one's value where set, else the lower one's. */
  public RetryOverride over(RetryOverride lower) {
    return new RetryOverride(
        maxAttempts != null ? maxAttempts : lower.maxAttempts,
        initialBackoff != null ? initialBackoff : lower.initialBackoff,
        multiplier != null ? multiplier : lower.multiplier,
        maxBackoff != null ? maxBackoff : lower.maxBackoff,
        maxLeaseExpiries != null ? maxLeaseExpiries : lower.maxLeaseExpiries);
  }

  /**
   * A full policy: this layer's fields where set, the base's elsewhere.
   *
   * @throws IllegalArgumentException if a field set here is out of range (see {@link RetryPolicy})
   */
  public RetryPolicy applyTo(RetryPolicy base) {
    return new RetryPolicy(
        maxAttempts != null ? maxAttempts : base.maxAttempts(),
        initialBackoff != null ? initialBackoff : base.initialBackoff(),
        multiplier != null ? multiplier : base.multiplier(),
        maxBackoff != null ? maxBackoff : base.maxBackoff(),
        maxLeaseExpiries != null ? maxLeaseExpiries : base.maxLeaseExpiries());
  }
}
