package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.client.JobSpec;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import org.junit.jupiter.api.Test;

class TrackedSampleTest {
  private static final SampleJob FLAKY =
      new SampleJob(JobSpec.builder("flaky").build(), JobState.JOB_STATE_SUCCEEDED, 3);

  @Test
  void noChangeInStateOrAttemptsPrintsNothing() {
    TrackedSample sample = new TrackedSample(FLAKY, job(JobState.JOB_STATE_PENDING, 0, ""));

    assertThat(sample.update(job(JobState.JOB_STATE_PENDING, 0, ""))).isNull();
  }

  @Test
  void aRetryShowsTheAttemptAndTheError() {
    TrackedSample sample = new TrackedSample(FLAKY, job(JobState.JOB_STATE_RUNNING, 1, ""));

    assertThat(sample.update(job(JobState.JOB_STATE_PENDING, 1, "boom\n  at X")))
        .isEqualTo("job 6 flaky: RUNNING -> PENDING (attempt 1, last error: boom at X)");
  }

  @Test
  void aMissedLeaseBetweenTwoPollsSaysAgain() {
    TrackedSample sample = new TrackedSample(FLAKY, job(JobState.JOB_STATE_PENDING, 1, "first"));

    assertThat(sample.update(job(JobState.JOB_STATE_PENDING, 2, "second")))
        .isEqualTo("job 6 flaky: PENDING -> PENDING again (attempt 2, last error: second)");
  }

  @Test
  void aWholeRetrySeenAsRunningTwiceShowsTheErrorInBetween() {
    TrackedSample sample = new TrackedSample(FLAKY, job(JobState.JOB_STATE_RUNNING, 1, ""));

    assertThat(sample.update(job(JobState.JOB_STATE_RUNNING, 2, "boom")))
        .isEqualTo("job 6 flaky: RUNNING -> RUNNING again (attempt 2, last error: boom)");
  }

  @Test
  void anErrorLeftFromAnEarlierAttemptIsNotRepeatedOnSuccess() {
    TrackedSample sample = new TrackedSample(FLAKY, job(JobState.JOB_STATE_RUNNING, 3, "old"));

    assertThat(sample.update(job(JobState.JOB_STATE_SUCCEEDED, 3, "old")))
        .isEqualTo("job 6 flaky: RUNNING -> SUCCEEDED (attempt 3)");
    assertThat(sample.isTerminal()).isTrue();
    assertThat(sample.metExpectation()).isTrue();
  }

  @Test
  void theExpectedStateAfterTheWrongAttemptCountIsNotMet() {
    TrackedSample sample = new TrackedSample(FLAKY, job(JobState.JOB_STATE_SUCCEEDED, 4, ""));

    assertThat(sample.metExpectation()).isFalse();
  }

  private static Job job(JobState state, int attempts, String lastError) {
    return Job.newBuilder()
        .setId(6)
        .setType("flaky")
        .setState(state)
        .setAttempts(attempts)
        .setLastError(lastError)
        .build();
  }
}
