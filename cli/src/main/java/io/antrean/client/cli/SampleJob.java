package io.antrean.client.cli;

import io.antrean.client.JobSpec;
import io.antrean.proto.v1.JobState;
import java.time.Duration;
import java.util.List;

/**
 * One job of the demo's sample set and how it should end.
 *
 * @param spec what to enqueue
 * @param expectedState the terminal state the worker's handlers lead it to
 * @param expectedAttempts the attempts it should take, or 0 when any number will do
 */
record SampleJob(JobSpec spec, JobState expectedState, int expectedAttempts) {
  static final int ANY_ATTEMPTS = 0;

  /** The job's type, for the printed lines. */
  String type() {
    return spec.toRequest().getType();
  }

  /** {@code SUCCEEDED}, or {@code SUCCEEDED in 3 attempts} when the count matters. */
  String expectation() {
    String state = JobText.state(expectedState);
    if (expectedAttempts == ANY_ATTEMPTS) {
      return state;
    }
    return state + " in " + expectedAttempts + (expectedAttempts == 1 ? " attempt" : " attempts");
  }

  /**
   * The sample set, for the handlers the worker ships: three emails, two reports, a flaky job that
   * succeeds on its third attempt and an email without recipient that fails permanently.
   */
  static List<SampleJob> standardSet(String queue) {
    return List.of(
        succeeds(queue, "email.send", "{\"to\":\"ada@example.com\",\"subject\":\"Welcome\"}"),
        succeeds(queue, "email.send", "{\"to\":\"grace@example.com\",\"subject\":\"Welcome\"}"),
        succeeds(queue, "email.send", "{\"to\":\"linus@example.com\",\"subject\":\"Welcome\"}"),
        succeeds(queue, "report.build", "{\"pages\":3,\"msPerPage\":100}"),
        succeeds(queue, "report.build", "{\"pages\":3,\"msPerPage\":100}"),
        new SampleJob(
            JobSpec.builder("flaky")
                .queue(queue)
                .jsonPayload("{\"failures\":2}")
                .maxAttempts(5)
                .backoff(Duration.ofMillis(200), Duration.ofSeconds(1))
                .build(),
            JobState.JOB_STATE_SUCCEEDED,
            3),
        new SampleJob(
            JobSpec.builder("email.send")
                .queue(queue)
                .jsonPayload("{\"subject\":\"no recipient\"}")
                .build(),
            JobState.JOB_STATE_FAILED,
            1));
  }

  private static SampleJob succeeds(String queue, String type, String json) {
    JobSpec spec = JobSpec.builder(type).queue(queue).jsonPayload(json).build();
    return new SampleJob(spec, JobState.JOB_STATE_SUCCEEDED, ANY_ATTEMPTS);
  }
}
