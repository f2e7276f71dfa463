package io.antrean.coordinator.store;

import java.time.Duration;

/**
 * Depth of one queue by state, as of a given instant.
 *
 * @param pending pending jobs whose run time has passed
 * @param scheduled pending jobs whose run time is still ahead
 * @param oldestPendingAge how long the oldest ready pending job has waited since its run time
 * @param waiting jobs WAITING for the jobs they depend on
 */
public record QueueCounts(
    String queue,
    long pending,
    long scheduled,
    long running,
    long succeeded,
    long failed,
    long cancelled,
    Duration oldestPendingAge,
    long waiting) {

  /** Counts of a queue without WAITING jobs. */
  public QueueCounts(
      String queue,
      long pending,
      long scheduled,
      long running,
      long succeeded,
      long failed,
      long cancelled,
      Duration oldestPendingAge) {
    this(queue, pending, scheduled, running, succeeded, failed, cancelled, oldestPendingAge, 0);
  }
}
