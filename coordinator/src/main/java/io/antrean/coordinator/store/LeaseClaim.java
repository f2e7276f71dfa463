package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.LeaseId;
import javax.annotation.Nullable;

/**
 * What a worker presents to act on a lease: the fencing token and the lease id it was given. It
 * holds the lease only if both are the lease's; a wrong or missing lease id with the right token is
 * refused like a stale token.
 *
 * @param leaseId the lease id presented, or null when the call carried none (which holds nothing)
 */
public record LeaseClaim(long fencingToken, @Nullable LeaseId leaseId) {

  /** The claim of the lease the job was just granted (its lease must carry its lease id). */
  public static LeaseClaim of(Job leased) {
    return new LeaseClaim(leased.lease().fencingToken(), leased.lease().leaseId());
  }

  /** Whether this claim names the stored lease id (constant time); never for a missing one. */
  public boolean matches(@Nullable LeaseId stored) {
    return leaseId != null && leaseId.matches(stored);
  }

  /** The SHA-256 digest of the lease id presented, as the stores keep it, or null for none. */
  @Nullable
  public byte[] leaseIdSha256() {
    return leaseId == null ? null : leaseId.sha256();
  }
}
