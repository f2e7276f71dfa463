package io.antrean.coordinator.job;

import java.util.Objects;

/**
 * How a lease ends, as {@link JobLifecycle} decides it: where the job goes next, and how the
 * lease's attempt is recorded in the history. A store applies both halves in one transaction.
 *
 * @param move the job's move, which also clears the lease
 * @param attempt how the lease's history entry ends
 */
public record LeaseEnd(JobMove move, AttemptEnd attempt) {
  public LeaseEnd {
    Objects.requireNonNull(move, "move");
    Objects.requireNonNull(attempt, "attempt");
  }
}
