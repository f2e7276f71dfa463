package io.antrean.coordinator.job;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and how fast a job is retried.
 *
 * @param maxAttempts handler attempts a job may use, the first included; at least 1
 * @param initialBackoff the cap of the first retry's delay
 * @param multiplier growth of the cap per retry; at least 1
 * @param maxBackoff the largest cap
 * @param maxLeaseExpiries lease expiries a job may cause before it is dead-lettered; at least 1
 */
public record RetryPolicy(
    int maxAttempts,
    Duration initialBackoff,
    double multiplier,
    Duration maxBackoff,
    int maxLeaseExpiries) {

  /** The built-in defaults: 5 attempts, 1 s doubling to 5 min, 3 lease expiries. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(5, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), 3);

  public RetryPolicy {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
    }
    if (initialBackoff.isNegative() || maxBackoff.isNegative()) {
      throw new IllegalArgumentException("backoff durations must not be negative");
    }
    if (!(multiplier >= 1.0)) {
      throw new IllegalArgumentException("multiplier must be at least 1, got " + multiplier);
    }
    if (maxLeaseExpiries < 1) {
      throw new IllegalArgumentException(
          "maxLeaseExpiries must be at least 1, got " + maxLeaseExpiries);
    }
  }
}
