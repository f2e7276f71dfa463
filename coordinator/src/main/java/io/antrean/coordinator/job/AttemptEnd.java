package io.antrean.coordinator.job;

import java.util.Objects;
import javax.annotation.Nullable;

/**
 * How a lease's entry in the attempt history ends: its outcome and what it records of the error.
 *
 * @param failure the worker's failure, recorded on the entry, or null
 * @param message the entry's error message when there is no failure (a reason), or null
 */
public record AttemptEnd(
    AttemptOutcome outcome, @Nullable Failure failure, @Nullable String message) {
  /** The worker completed the job. */
  public static final AttemptEnd SUCCEEDED = new AttemptEnd(AttemptOutcome.SUCCEEDED, null, null);

  public AttemptEnd {
    Objects.requireNonNull(outcome, "outcome");
  }
}
