package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A job's move out of PENDING or RUNNING, described by what differs from its row as it is: the new
 * state, a new run time and last error when they change, and how the lease-expiry and release
 * counters change. The attempts counter never changes here: it counts leases taken, and a lease
 * once taken stays counted however it ends. Each store turns it into its own UPDATE, which also
 * clears the lease.
 *
 * @param runAt the new run time, or null to keep the row's
 * @param lastError the new last error, or null to keep the row's
 */
public record JobMove(
    JobState to,
    @Nullable Instant runAt,
    @Nullable String lastError,
    int leaseExpiriesDelta,
    int releasesDelta) {

  public JobMove {
    Objects.requireNonNull(to, "to");
  }

  public static JobMove to(JobState state) {
    return new JobMove(state, null, null, 0, 0);
  }

  public JobMove runAt(Instant value) {
    return new JobMove(to, value, lastError, leaseExpiriesDelta, releasesDelta);
  }

  public JobMove lastError(String value) {
    return new JobMove(to, runAt, value, leaseExpiriesDelta, releasesDelta);
  }

  public JobMove leaseExpiries(int delta) {
    return new JobMove(to, runAt, lastError, delta, releasesDelta);
  }

  public JobMove releases(int delta) {
    return new JobMove(to, runAt, lastError, leaseExpiriesDelta, delta);
  }
}
