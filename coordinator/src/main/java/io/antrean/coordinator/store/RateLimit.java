package io.antrean.coordinator.store;

import java.time.Duration;
import java.util.Objects;

/**
 * A rate limit as a token bucket: at most {@code starts} tokens, refilled evenly over {@code
 * interval}; every lease takes one token, and a job finds none waits PENDING.
 *
 * @param starts the bucket's size: at least 1
 * @param interval how long an empty bucket takes to fill: more than 0 (whole microseconds), at most
 *     {@link #MAX_INTERVAL}
 */
public record RateLimit(int starts, Duration interval) {
  /** The longest interval accepted. */
  public static final Duration MAX_INTERVAL = Duration.ofDays(1);

  /**
   * @throws IllegalArgumentException for fewer than 1 start or an interval out of range
   */
  public RateLimit {
    Objects.requireNonNull(interval, "interval");
    if (starts < 1) {
      throw new IllegalArgumentException("starts must be at least 1, was " + starts);
    }
    if (interval.compareTo(Duration.ofNanos(1_000)) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
      throw new IllegalArgumentException(
          "interval must be from 1 microsecond to " + MAX_INTERVAL + ", was " + interval);
    }
  }

  /** The interval in whole microseconds, as the stores keep it. */
  public long intervalMicros() {
    return interval.toNanos() / 1_000;
  }

  /** Tokens regained per microsecond. */
  public double tokensPerMicro() {
    return starts / (double) intervalMicros();
  }
}
