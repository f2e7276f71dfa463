package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Objects;

/**
 * A lease granted on a PENDING job: it becomes RUNNING under a fencing token higher than any it was
 * issued before (the store's counter issues it), held by {@code workerId} until {@code expiresAt},
 * with {@code attempts} counting this lease.
 */
public record LeaseGrant(String workerId, Instant expiresAt, int attempts) {
  public LeaseGrant {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
