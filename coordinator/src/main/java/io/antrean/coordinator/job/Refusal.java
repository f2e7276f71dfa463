package io.antrean.coordinator.job;

/** Why {@link JobLifecycle} refuses an event: the job stays exactly as it is. */
public enum Refusal {
  /**
   * The job is not RUNNING under this fencing token held by this worker: the lease expired, was
   * taken back or handed on. The caller gets LEASE_LOST; a store records the attempt as {@link
   * AttemptOutcome#STALE_COMPLETION_REJECTED}.
   */
  LEASE_LOST,
  /** A lease for a job that is not PENDING. */
  NOT_PENDING,
  /** A lease for a PENDING job whose run time has not come. */
  NOT_DUE,
  /** An expiry for a lease that is still valid at {@code now}. */
  NOT_EXPIRED,
  /** A cancellation of a job that already succeeded, failed or was cancelled. */
  JOB_FINISHED,
  /** A redrive of a job that is not in the dead-letter queue (state FAILED). */
  NOT_DEAD_LETTERED,
  /** A dependency's outcome for a job that no longer waits (state WAITING) for it. */
  NOT_WAITING
}
