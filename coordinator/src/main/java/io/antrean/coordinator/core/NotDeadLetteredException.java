package io.antrean.coordinator.core;

import io.antrean.coordinator.job.JobState;

/** The job exists but is not in the dead-letter queue. */
public final class NotDeadLetteredException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public NotDeadLetteredException(long jobId, JobState state) {
    super("job " + jobId + " is " + state + ", not dead-lettered");
  }
}
