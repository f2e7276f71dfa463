package io.antrean.coordinator.job;

/**
 * What becomes of a WAITING job when a job it depends on ends FAILED or CANCELLED. The outcome
 * cascades: the job's own dependents then get their policy in turn.
 */
public enum DependencyFailure {
  /** The job becomes CANCELLED (the default). */
  CANCEL,
  /** The job becomes FAILED, in the dead-letter queue, with a {@code DEPENDENCY_FAILED} error. */
  DEAD_LETTER
}
