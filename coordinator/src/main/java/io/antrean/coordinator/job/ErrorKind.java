package io.antrean.coordinator.job;

/** How a reported failure is treated. */
public enum ErrorKind {
  /** Transient: retried with backoff while the attempt budget lasts. */
  RETRYABLE,
  /** Bad input or a bug: dead-lettered at once. */
  PERMANENT
}
