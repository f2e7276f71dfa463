package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Objects;

/**
 * The lease a worker holds on a running job.
 *
 * @param workerId who holds it
 * @param fencingToken changes on every lease of the job; operations must present it
 * @param expiresAt when the lease lapses unless renewed
 */
public record LeaseInfo(String workerId, long fencingToken, Instant expiresAt) {
  public LeaseInfo {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
