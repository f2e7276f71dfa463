package io.antrean.coordinator.job;

/** How one attempt of a job ended (or that it has not ended yet). */
public enum AttemptOutcome {
  RUNNING,
  SUCCEEDED,
  FAILED_RETRYABLE,
  FAILED_PERMANENT,
  LEASE_EXPIRED,
  RELEASED,
  CANCELLED,
  /** A worker whose lease was lost tried to finish; nothing changed. */
  STALE_COMPLETION_REJECTED,
  /** Not an attempt: the job was redriven out of the dead-letter queue; its next life starts. */
  REDRIVEN
}
