package io.antrean.coordinator.store;

import java.util.List;

/**
 * What a fire stored.
 *
 * @param enqueued one result per job enqueued, in order (a job whose key was already remembered is
 *     flagged deduplicated); empty when the overlap policy skipped them
 * @param misses due times dropped, the plan's and the overlap policy's
 */
public record ScheduleFired(List<EnqueueResult> enqueued, long misses) {
  public ScheduleFired {
    enqueued = List.copyOf(enqueued);
  }
}
