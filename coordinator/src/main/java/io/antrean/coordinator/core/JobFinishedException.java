package io.antrean.coordinator.core;

import io.antrean.coordinator.job.JobState;

/** The job has already finished, so the operation (for example a cancel) cannot apply. */
public final class JobFinishedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JobFinishedException(long jobId, JobState state) {
    super("job " + jobId + " already finished as " + state);
  }
}
