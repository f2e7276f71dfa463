package io.antrean.coordinator.job;

/** What a CancelJob does to a job that has not finished. */
public enum Cancellation {
  /** A PENDING job becomes CANCELLED at once: {@link JobLifecycle#CANCEL_NOW}. */
  CANCEL_NOW,
  /**
   * A RUNNING job is flagged: its worker hears it on its next heartbeat, and the job ends CANCELLED
   * instead of being retried when the lease ends by Fail, Release or expiry.
   */
  ASK_WORKER,
  /** A RUNNING job already flagged: nothing changes. */
  ALREADY_ASKED
}
