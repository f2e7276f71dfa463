package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * What {@link JobLifecycle} decides on: a job's state, counters, cancellation flag, lease and retry
 * policy, without its payload, result or history.
 *
 * @param runAt when a PENDING job becomes leasable
 * @param attempts leases taken so far, however they ended
 * @param leaseExpiries how many of those leases expired
 * @param releases how many of those leases were handed back unrun
 * @param lease the current lease; present exactly while the job is RUNNING
 */
public record JobStatus(
    JobState state,
    Instant runAt,
    int attempts,
    int leaseExpiries,
    int releases,
    boolean cancelRequested,
    @Nullable LeaseInfo lease,
    RetryPolicy retryPolicy) {

  public JobStatus {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(runAt, "runAt");
    Objects.requireNonNull(retryPolicy, "retryPolicy");
    if ((state == JobState.RUNNING) != (lease != null)) {
      throw new IllegalArgumentException("a job has a lease exactly while RUNNING: " + state);
    }
  }

  /** The status of a job snapshot. */
  public static JobStatus of(Job job) {
    return new JobStatus(
        job.state(),
        job.runAt(),
        job.attempts(),
        job.leaseExpiries(),
        job.releases(),
        job.cancelRequested(),
        job.lease(),
        job.retryPolicy());
  }

  /** Handler attempts spent: leases that neither expired nor were handed back unrun. */
  public int handlerAttempts() {
    return attempts - leaseExpiries - releases;
  }

  /**
   * True while the job runs under the lease that issued this token to this worker: a token
   * presented under another worker id (or, with authentication, by another identity) does not hold
   * it.
   */
  public boolean isHeldBy(long fencingToken, String workerId) {
    return isHeldWith(fencingToken) && lease.workerId().equals(workerId);
  }

  /** True while the job runs under the lease that issued this token. */
  public boolean isHeldWith(long fencingToken) {
    return lease != null && lease.fencingToken() == fencingToken;
  }
}
