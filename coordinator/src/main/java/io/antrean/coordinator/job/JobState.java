package io.antrean.coordinator.job;

/** Where a job is in its life; see docs/design.md "Jobs and their states". */
public enum JobState {
  /** In the pending list; leasable once {@code runAt} has passed. */
  PENDING,
  /** Leased by one worker until the lease expires. */
  RUNNING,
  /** Completed with a stored result. */
  SUCCEEDED,
  /** In the dead-letter queue. */
  FAILED,
  /** Will not run. */
  CANCELLED,
  /**
   * Waits for the jobs it depends on ({@link NewJob#dependsOn}); never leased. PENDING once they
   * all SUCCEEDED; its {@link DependencyFailure} policy once one of them ends FAILED or CANCELLED.
   */
  WAITING;

  /** True for the states a job never leaves on its own. */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }
}
