package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import java.time.Instant;
import java.util.Optional;

/**
 * Decides what follows a failed attempt. Called by a store inside the atomic change, with the job
 * as it stands before the change (still RUNNING, attempts counting the failed one). Must be fast
 * and must not call the store.
 */
@FunctionalInterface
public interface RetryPlanner {
  /**
   * @return when the job may run again, or empty to dead-letter it (state FAILED)
   */
  Optional<Instant> nextRunAt(Job job, Failure failure, Instant now);
}
