package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.JobState;
import java.time.Instant;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A job's move out of PENDING or RUNNING, described by what differs from its row as it is: the new
 * state, a new run time and last error when they change, and how the attempt and lease-expiry
 * counters change. Each store turns it into its own UPDATE, which also clears the lease.
 *
 * @param runAt the new run time, or null to keep the row's
 * @param lastError the new last error, or null to keep the row's
 */
public record JobMove(
    JobState to,
    @Nullable Instant runAt,
    @Nullable String lastError,
    int attemptsDelta,
    int leaseExpiriesDelta) {

  public JobMove {
    Objects.requireNonNull(to, "to");
  }

  public static JobMove to(JobState state) {
    return new JobMove(state, null, null, 0, 0);
  }

  public JobMove runAt(Instant value) {
    return new JobMove(to, value, lastError, attemptsDelta, leaseExpiriesDelta);
  }

  public JobMove lastError(String value) {
    return new JobMove(to, runAt, value, attemptsDelta, leaseExpiriesDelta);
  }

  public JobMove attempts(int delta) {
    return new JobMove(to, runAt, lastError, delta, leaseExpiriesDelta);
  }

  public JobMove leaseExpiries(int delta) {
    return new JobMove(to, runAt, lastError, attemptsDelta, delta);
  }
}
