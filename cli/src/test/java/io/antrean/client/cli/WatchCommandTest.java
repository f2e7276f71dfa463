package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.client.FakeJobService;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.Lease;
import io.antrean.proto.v1.WatchJobRequest;
import io.antrean.proto.v1.WatchJobResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class WatchCommandTest {
  private static final String NL = System.lineSeparator();
  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  private static Job job(JobState state, int attempts) {
    Job.Builder b = Job.newBuilder().setId(7).setType("email.send").setState(state);
    b.setAttempts(attempts);
    if (state == JobState.JOB_STATE_RUNNING) {
      b.setLease(Lease.newBuilder().setWorkerId("w1"));
    }
    return b.build();
  }

  @Test
  void printsPendingRunningSucceededAndExitsZero() {
    cli.service.watchJob =
        FakeJobService.streaming(
            job(JobState.JOB_STATE_PENDING, 0),
            job(JobState.JOB_STATE_RUNNING, 1),
            job(JobState.JOB_STATE_SUCCEEDED, 1));

    CliHarness.Result result = cli.run("watch", "7");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "job 7 email.send: PENDING"
                + NL
                + "job 7 email.send: PENDING -> RUNNING (attempt 1, worker w1)"
                + NL
                + "job 7 email.send: RUNNING -> SUCCEEDED (attempt 1)"
                + NL);
    assertThat(cli.service.requestsOf(WatchJobRequest.class).get(0).getId()).isEqualTo(7);
  }

  @Test
  void aJobThatEndsFailedExitsFiveWithItsLastError() {
    cli.service.watchJob =
        FakeJobService.streaming(
            job(JobState.JOB_STATE_RUNNING, 3),
            job(JobState.JOB_STATE_FAILED, 3).toBuilder().setLastError("SMTP 550").build());

    CliHarness.Result result = cli.run("watch", "7");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.JOB_FAILED).isEqualTo(5);
    assertThat(result.out()).endsWith("RUNNING -> FAILED (attempt 3, last error: SMTP 550)" + NL);
  }

  @Test
  void aCancelledJobExitsSixAndShowsTheCancelFlag() {
    cli.service.watchJob =
        FakeJobService.streaming(
            job(JobState.JOB_STATE_RUNNING, 1),
            job(JobState.JOB_STATE_RUNNING, 1).toBuilder().setCancelRequested(true).build(),
            job(JobState.JOB_STATE_CANCELLED, 1));

    CliHarness.Result result = cli.run("watch", "7");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.JOB_CANCELLED).isEqualTo(6);
    assertThat(result.out())
        .contains("RUNNING -> RUNNING (attempt 1, worker w1, cancel requested)")
        .endsWith("RUNNING -> CANCELLED (attempt 1)" + NL);
  }

  @Test
  void jsonPrintsOneResponsePerLine() throws Exception {
    cli.service.watchJob =
        FakeJobService.streaming(
            job(JobState.JOB_STATE_PENDING, 0), job(JobState.JOB_STATE_SUCCEEDED, 1));

    CliHarness.Result result = cli.run("watch", "7", "--json");

    String[] lines = result.out().split(NL);
    assertThat(lines).hasSize(2);
    WatchJobResponse.Builder last = WatchJobResponse.newBuilder();
    com.google.protobuf.util.JsonFormat.parser().merge(lines[1], last);
    assertThat(last.getJob().getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
  }

  @Test
  void unknownJobExitsNotFound() {
    CliHarness.Result result = cli.run("watch", "404");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
  }

  @Test
  void timeoutBeforeTheEndExitsUnavailableAndSaysWhereTheJobWas() {
    cli.service.watchJob =
        (r, observer) ->
            observer.onNext(
                WatchJobResponse.newBuilder().setJob(job(JobState.JOB_STATE_RUNNING, 1)).build());

    CliHarness.Result result = cli.run("watch", "7", "--timeout", "300ms");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
    assertThat(result.out()).contains("job 7 email.send: RUNNING (attempt 1, worker w1)");
    assertThat(result.err()).contains("job 7 still RUNNING after PT0.3S");
  }
}
