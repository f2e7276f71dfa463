package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import io.antrean.client.FakeJobService;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.CancelJobResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.grpc.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class CancelCommandTest {
  private static final Job CANCELLED =
      Job.newBuilder()
          .setId(7)
          .setType("report.build")
          .setState(JobState.JOB_STATE_CANCELLED)
          .build();
  private static final Job FLAGGED =
      Job.newBuilder()
          .setId(8)
          .setType("report.build")
          .setState(JobState.JOB_STATE_RUNNING)
          .setCancelRequested(true)
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void aPendingJobIsCancelledAtOnce() {
    cli.service.cancelJob = r -> CancelJobResponse.newBuilder().setJob(CANCELLED).build();

    CliHarness.Result result = cli.run("cancel", "7");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip()).isEqualTo("job 7 CANCELLED");
    assertThat(cli.service.requestsOf(CancelJobRequest.class))
        .containsExactly(CancelJobRequest.newBuilder().setId(7).build());
  }

  @Test
  void aRunningJobIsFlaggedAndTheWorkerStopsItAtItsNextHeartbeat() {
    cli.service.cancelJob = r -> CancelJobResponse.newBuilder().setJob(FLAGGED).build();

    CliHarness.Result result = cli.run("cancel", "8");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip())
        .isEqualTo("job 8 RUNNING: cancel requested; the worker stops it at its next heartbeat");
  }

  @Test
  void jsonOutputParsesBackIntoTheResponse() throws Exception {
    cli.service.cancelJob = r -> CancelJobResponse.newBuilder().setJob(FLAGGED).build();

    CliHarness.Result result = cli.run("cancel", "8", "--json");

    CancelJobResponse.Builder parsed = CancelJobResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(CancelJobResponse.newBuilder().setJob(FLAGGED).build());
    assertThat(result.out()).contains("\"cancel_requested\": true");
  }

  @Test
  void anUnknownIdExitsWith3() {
    CliHarness.Result result = cli.run("cancel", "404");

    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.err().strip()).isEqualTo("antrean: not found: job 404 not found");
  }

  @Test
  void aFinishedJobIsRefusedWithItsReasonAndExits1() {
    cli.service.cancelJob =
        r -> {
          throw FakeJobService.failure(
              Status.Code.FAILED_PRECONDITION, "job 7 already SUCCEEDED", "JOB_FINISHED");
        };

    CliHarness.Result result = cli.run("cancel", "7");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err().strip())
        .isEqualTo("antrean: FAILED_PRECONDITION: job 7 already SUCCEEDED [JOB_FINISHED]");
  }

  @Test
  void aMissingOrNonNumericIdIsAUsageError() {
    assertThat(cli.run("cancel").exitCode()).isEqualTo(2);
    assertThat(cli.run("cancel", "seven").exitCode()).isEqualTo(2);
    assertThat(cli.service.requests).isEmpty();
  }
}
