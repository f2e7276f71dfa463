package io.antrean.coordinator.core;

import java.time.Duration;

/**
 * When dead-lettering counts as a spike: more than {@code threshold} jobs within {@code window}.
 * The same window is the one GetStats reports recent growth over.
 */
public record DeadLetterAlert(int threshold, Duration window) {
  /** More than 10 dead letters within 5 minutes. */
  public static final DeadLetterAlert DEFAULT = new DeadLetterAlert(10, Duration.ofMinutes(5));

  public DeadLetterAlert {
    if (threshold < 1) {
      throw new IllegalArgumentException("threshold must be at least 1, got " + threshold);
    }
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be positive, got " + window);
    }
  }
}
