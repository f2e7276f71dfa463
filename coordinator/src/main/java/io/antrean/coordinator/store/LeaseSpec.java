package io.antrean.coordinator.store;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * What a Lease call asks the store for.
 *
 * @param workerId who will hold the leases
 * @param queue the one queue to lease from
 * @param types only these job types; empty means any
 * @param maxJobs at least 1
 * @param expiresAt when the new leases lapse unless renewed
 */
public record LeaseSpec(
    String workerId, String queue, Set<String> types, int maxJobs, Instant expiresAt) {
  public LeaseSpec {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(expiresAt, "expiresAt");
    types = Set.copyOf(types);
    if (maxJobs < 1) {
      throw new IllegalArgumentException("maxJobs must be at least 1, got " + maxJobs);
    }
  }
}
