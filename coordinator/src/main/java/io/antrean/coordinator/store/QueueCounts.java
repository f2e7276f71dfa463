package io.antrean.coordinator.store;

import java.time.Duration;

/**
 * Depth of one queue by state, as of a given instant.
 *
 * @param pending pending jobs whose run time has passed
 * @param scheduled pending jobs whose run time is still ahead
 * @param oldestPendingAge how long the oldest ready pending job has waited since its run time
 */
public record QueueCounts(
    String queue,
    long pending,
    long scheduled,
    long running,
    long succeeded,
    long failed,
    long cancelled,
    Duration oldestPendingAge) {}
