package io.antrean.client.cli;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;

/**
 * A sample job after Enqueue: what was expected and the latest view of it. Confined to the thread
 * running {@code samples}.
 */
final class TrackedSample {
  private final SampleJob sample;
  private Job latest;

  TrackedSample(SampleJob sample, Job enqueued) {
    this.sample = sample;
    this.latest = enqueued;
  }

  SampleJob sample() {
    return sample;
  }

  long id() {
    return latest.getId();
  }

  Job latest() {
    return latest;
  }

  boolean isTerminal() {
    return JobText.isTerminal(latest.getState());
  }

  /**
   * Records a newer view of the job.
   *
   * @return the state-change line to print, or {@code null} when neither the state nor the attempt
   *     count changed
   */
  String update(Job next) {
    Job previous = latest;
    latest = next;
    if (previous.getState() == next.getState() && previous.getAttempts() == next.getAttempts()) {
      return null;
    }
    StringBuilder line =
        new StringBuilder()
            .append("job ")
            .append(next.getId())
            .append(' ')
            .append(next.getType())
            .append(": ")
            .append(JobText.state(previous.getState()))
            .append(" -> ")
            .append(JobText.state(next.getState()))
            .append(previous.getState() == next.getState() ? " again" : "")
            .append(" (attempt ")
            .append(next.getAttempts());
    if (showsFailure(previous, next)) {
      line.append(", last error: ").append(JobText.oneLine(next.getLastError(), 100));
    }
    return line.append(')').toString();
  }

  /** A retry was scheduled, the job failed, or a retry happened between two polls. */
  private static boolean showsFailure(Job previous, Job next) {
    if (next.getLastError().isEmpty()) {
      return false;
    }
    return next.getState() == JobState.JOB_STATE_PENDING
        || next.getState() == JobState.JOB_STATE_FAILED
        || previous.getState() == next.getState();
  }

  /** Whether the job ended in the expected state after the expected number of attempts. */
  boolean metExpectation() {
    if (latest.getState() != sample.expectedState()) {
      return false;
    }
    return sample.expectedAttempts() == SampleJob.ANY_ATTEMPTS
        || latest.getAttempts() == sample.expectedAttempts();
  }
}
