package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The lease a worker holds on a running job.
 *
 * @param workerId who holds it
 * @param fencingToken changes on every lease of the job; operations must present it
 * @param expiresAt when the lease lapses unless renewed
 * @param leaseId the lease's secret, which operations must present with the token: with its text
 *     only on the jobs a lease call just granted, digest-only when read back from a store; null for
 *     a lease granted before lease ids existed (no call can present it)
 */
public record LeaseInfo(
    String workerId, long fencingToken, Instant expiresAt, @Nullable LeaseId leaseId) {
  public LeaseInfo {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** A lease without a lease id: as granted before lease ids existed, or where none matters. */
  public LeaseInfo(String workerId, long fencingToken, Instant expiresAt) {
    this(workerId, fencingToken, expiresAt, null);
  }

  /** This lease with another lease id. */
  public LeaseInfo withLeaseId(LeaseId newLeaseId) {
    return new LeaseInfo(workerId, fencingToken, expiresAt, newLeaseId);
  }
}
