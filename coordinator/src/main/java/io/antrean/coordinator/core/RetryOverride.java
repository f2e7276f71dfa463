package io.antrean.coordinator.core;

import java.time.Duration;
import javax.annotation.Nullable;

/** A producer's overrides of the retry defaults; null fields keep the default. */
public record RetryOverride(
    @Nullable Integer maxAttempts,
    @Nullable Duration initialBackoff,
    @Nullable Double multiplier,
    @Nullable Duration maxBackoff,
    @Nullable Integer maxLeaseExpiries) {

  /** No overrides. */
  public static final RetryOverride NONE = new RetryOverride(null, null, null, null, null);
}
