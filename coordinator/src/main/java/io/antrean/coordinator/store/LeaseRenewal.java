package io.antrean.coordinator.store;

import javax.annotation.Nullable;

/**
 * One lease presented in a heartbeat.
 *
 * @param lease the fencing token and lease id presented
 * @param progress a progress note to store on the job, or null to keep the last one
 */
public record LeaseRenewal(long jobId, LeaseClaim lease, @Nullable String progress) {
  public LeaseRenewal {
    java.util.Objects.requireNonNull(lease, "lease");
  }

  /** The fencing token presented. */
  public long fencingToken() {
    return lease.fencingToken();
  }
}
