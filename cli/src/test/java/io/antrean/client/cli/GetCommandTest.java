package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class GetCommandTest {
  private static final Timestamp T0 = Timestamp.newBuilder().setSeconds(1_800_000_000L).build();
  private static final Timestamp T1 = Timestamp.newBuilder().setSeconds(1_800_000_001L).build();

  private static final Job FLAKY =
      Job.newBuilder()
          .setId(7)
          .setQueue("default")
          .setType("flaky")
          .setPayload(ByteString.copyFromUtf8("{\"failures\":2}"))
          .setContentType("application/json")
          .setState(JobState.JOB_STATE_SUCCEEDED)
          .setAttempts(2)
          .setCreatedAt(T0)
          .setFinishedAt(T1)
          .setResult(ByteString.copyFromUtf8("{\"ok\":true}"))
          .setResultContentType("application/json")
          .addHistory(
              Attempt.newBuilder()
                  .setAttempt(1)
                  .setWorkerId("worker-a")
                  .setLeasedAt(T0)
                  .setEndedAt(T0)
                  .setOutcome(AttemptOutcome.ATTEMPT_OUTCOME_FAILED_RETRYABLE)
                  .setErrorKind(ErrorKind.ERROR_KIND_RETRYABLE)
                  .setErrorType("java.io.IOException")
                  .setErrorMessage("simulated failure 1 of 2"))
          .addHistory(
              Attempt.newBuilder()
                  .setAttempt(2)
                  .setWorkerId("worker-b")
                  .setLeasedAt(T0)
                  .setEndedAt(T1)
                  .setOutcome(AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED))
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void printsTheJobAndItsHistoryAsAReadableBlock() {
    cli.service.getJob = r -> GetJobResponse.newBuilder().setJob(FLAKY).build();

    CliHarness.Result result = cli.run("get", "7");

    assertThat(result.exitCode()).isZero();
    assertThat(cli.service.requestsOf(GetJobRequest.class).get(0).getId()).isEqualTo(7);
    assertThat(result.out())
        .startsWith("job 7" + System.lineSeparator())
        .containsPattern("type: +flaky")
        .containsPattern("state: +SUCCEEDED")
        .containsPattern("attempts: +2 \\(lease expiries: 0\\)")
        .containsPattern("created: +2027-01-15T08:00:00Z")
        .containsPattern("payload: +\\{\"failures\":2}")
        .containsPattern("result: +\\{\"ok\":true}")
        .contains("history:")
        .containsPattern(
            "1 +worker-a .*FAILED_RETRYABLE +RETRYABLE java.io.IOException: simulated failure 1 of 2")
        .containsPattern("2 +worker-b .*SUCCEEDED +-");
  }

  @Test
  void jsonOutputParsesBackIntoTheJob() throws Exception {
    cli.service.getJob = r -> GetJobResponse.newBuilder().setJob(FLAKY).build();

    CliHarness.Result result = cli.run("get", "7", "--json");

    GetJobResponse.Builder parsed = GetJobResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.getJob()).isEqualTo(FLAKY);
  }

  @Test
  void anUnknownIdExitsWith3() {
    CliHarness.Result result = cli.run("get", "404");

    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.out()).isEmpty();
    assertThat(result.err().strip()).isEqualTo("antrean: not found: job 404 not found");
  }

  @Test
  void aNonNumericIdIsAUsageError() {
    CliHarness.Result result = cli.run("get", "seven");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(cli.service.requests).isEmpty();
  }
}
