package io.antrean.coordinator.core;

import java.time.Duration;
import javax.annotation.Nullable;

/**
 * An operator's request to set a queue's limits, before validation. 0 in a count means "no such
 * limit"; a rate is given by its two fields together, or left out with both null.
 *
 * @param rateStarts the queue's starts per {@code rateInterval}; null with it for no rate limit
 * @param ratePerKeyStarts starts per key per {@code ratePerKeyInterval}; null with it for none
 */
public record QueueLimitsCommand(
    String queue,
    int maxRunning,
    int maxRunningPerKey,
    @Nullable Integer rateStarts,
    @Nullable Duration rateInterval,
    @Nullable Integer ratePerKeyStarts,
    @Nullable Duration ratePerKeyInterval) {

  /** Concurrency limits only. */
  public static QueueLimitsCommand concurrency(String queue, int maxRunning, int maxRunningPerKey) {
    return new QueueLimitsCommand(queue, maxRunning, maxRunningPerKey, null, null, null, null);
  }
}
