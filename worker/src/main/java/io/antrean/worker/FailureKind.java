package io.antrean.worker;

/** How a failed attempt is treated by the coordinator. */
public enum FailureKind {
  /** Transient trouble: the job is retried with backoff while it has attempts left. */
  RETRYABLE,
  /** The job can never succeed as it is (bad payload, a bug): it goes to the dead-letter queue. */
  PERMANENT
}
