package io.antrean.coordinator.core;

import java.time.Duration;

/**
 * How long finished jobs are kept before the retention sweep deletes them, so the store stays
 * bounded.
 *
 * @param succeeded for SUCCEEDED jobs (default 7 days)
 * @param cancelled for CANCELLED jobs (default 7 days)
 * @param failed for FAILED jobs, the dead-letter queue (default 30 days)
 * @param interval how often the sweep runs (default 1 minute)
 */
public record Retention(
    Duration succeeded, Duration cancelled, Duration failed, Duration interval) {
  public static final Retention DEFAULT =
      new Retention(
          Duration.ofDays(7), Duration.ofDays(7), Duration.ofDays(30), Duration.ofMinutes(1));

  public Retention {
    for (Duration d : new Duration[] {succeeded, cancelled, failed, interval}) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("retention periods must be positive, got " + d);
      }
    }
  }
}
