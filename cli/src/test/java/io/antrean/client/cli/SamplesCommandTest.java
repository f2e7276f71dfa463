package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.Durations;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.RetryPolicy;
import io.grpc.Status;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class SamplesCommandTest {
  private static final String[] FAST = {"samples", "--poll-interval", "1ms", "--timeout", "10s"};

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void everyJobEndingAsExpectedExitsZero() {
    new SimulatedWorkers(SimulatedWorkers::standardHandlers).install(cli.service);

    CliHarness.Result result = cli.run(FAST);

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("job 1 email.send: enqueued, expect SUCCEEDED")
        .contains("job 6 flaky: enqueued, expect SUCCEEDED in 3 attempts")
        .contains("job 7 email.send: enqueued, expect FAILED in 1 attempt")
        .contains("job 6 flaky: PENDING -> RUNNING (attempt 1)")
        .contains(
            "job 6 flaky: RUNNING -> PENDING (attempt 1, last error: simulated failure 1 of 2)")
        .contains("job 6 flaky: PENDING -> RUNNING (attempt 3)")
        .contains("job 6 flaky: RUNNING -> SUCCEEDED (attempt 3)")
        .contains(
            "job 7 email.send: RUNNING -> FAILED (attempt 1, last error: payload has no 'to')")
        .containsPattern(
            "6 +flaky +SUCCEEDED in 3 attempts +SUCCEEDED +3 +yes +simulated failure 2 of 2")
        .containsPattern("7 +email.send +FAILED in 1 attempt +FAILED +1 +yes +payload has no 'to'")
        .contains("all 7 sample jobs ended as expected");
    assertThat(result.err()).isEmpty();
  }

  @Test
  void enqueuesTheDocumentedSampleSet() {
    new SimulatedWorkers(SimulatedWorkers::standardHandlers).install(cli.service);

    cli.run(FAST);

    List<EnqueueRequest> sent = cli.service.requestsOf(EnqueueRequest.class);
    assertThat(sent)
        .extracting(EnqueueRequest::getType)
        .containsExactly(
            "email.send",
            "email.send",
            "email.send",
            "report.build",
            "report.build",
            "flaky",
            "email.send");
    assertThat(sent).allSatisfy(r -> assertThat(r.getQueue()).isEqualTo("default"));
    assertThat(sent.get(3).getPayload().toStringUtf8())
        .isEqualTo("{\"pages\":3,\"msPerPage\":100}");
    assertThat(sent.get(5).getPayload().toStringUtf8()).isEqualTo("{\"failures\":2}");
    assertThat(sent.get(5).getRetryPolicy())
        .isEqualTo(
            RetryPolicy.newBuilder()
                .setMaxAttempts(5)
                .setInitialBackoff(Durations.fromMillis(200))
                .setMaxBackoff(Durations.fromSeconds(1))
                .build());
    assertThat(sent.get(6).getPayload().toStringUtf8()).doesNotContain("\"to\"");
  }

  @Test
  void aJobInTheWrongFinalStateExitsOne() {
    new SimulatedWorkers(
            r ->
                r.getPayload().toStringUtf8().contains("no recipient")
                    ? List.of(
                        SimulatedWorkers.running(1),
                        new SimulatedWorkers.Step(JobState.JOB_STATE_SUCCEEDED, 1, ""))
                    : SimulatedWorkers.standardHandlers(r))
        .install(cli.service);

    CliHarness.Result result = cli.run(FAST);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.out())
        .containsPattern("7 +email.send +FAILED in 1 attempt +SUCCEEDED +1 +NO")
        .contains("1 of 7 sample jobs did not end as expected");
  }

  @Test
  void theRightStateAfterTheWrongNumberOfAttemptsExitsOne() {
    new SimulatedWorkers(
            r ->
                r.getType().equals("flaky")
                    ? List.of(
                        SimulatedWorkers.running(1),
                        new SimulatedWorkers.Step(JobState.JOB_STATE_SUCCEEDED, 1, ""))
                    : SimulatedWorkers.standardHandlers(r))
        .install(cli.service);

    CliHarness.Result result = cli.run(FAST);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.out()).containsPattern("6 +flaky +SUCCEEDED in 3 attempts +SUCCEEDED +1 +NO");
  }

  @Test
  void jobsThatNeverFinishMakeItGiveUpAtTheTimeoutAndExitOne() {
    new SimulatedWorkers(
            r ->
                r.getType().equals("report.build")
                    ? List.of(SimulatedWorkers.running(1))
                    : SimulatedWorkers.standardHandlers(r))
        .install(cli.service);

    CliHarness.Result result = cli.run("samples", "--poll-interval", "5ms", "--timeout", "300ms");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.out())
        .contains("gave up waiting after 300 ms")
        .containsPattern("4 +report.build +SUCCEEDED +RUNNING +1 +NO")
        .contains("2 of 7 sample jobs did not end as expected");
  }

  @Test
  void aBrieflyUnavailableCoordinatorIsWaitedOut() {
    new SimulatedWorkers(SimulatedWorkers::standardHandlers).install(cli.service);
    FakeHiccup hiccup = new FakeHiccup(cli.service.getJob, 3);
    cli.service.getJob = hiccup::getJob;

    CliHarness.Result result = cli.run(FAST);

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).containsOnlyOnce("coordinator unavailable, still polling");
  }

  @Test
  void anUnreachableCoordinatorAtEnqueueExitsFour() {
    cli.service.enqueue =
        r -> {
          throw Status.UNAVAILABLE.withDescription("draining").asRuntimeException();
        };

    CliHarness.Result result = cli.run(FAST);

    assertThat(result.exitCode()).isEqualTo(4);
    assertThat(result.err()).contains("is unavailable (UNAVAILABLE: draining)");
  }

  /** Fails the first {@code failures} GetJob calls with UNAVAILABLE, then delegates. */
  private static final class FakeHiccup {
    private final io.antrean.client.FakeJobService.Handler<GetJobRequest, GetJobResponse> delegate;
    private final AtomicInteger failuresLeft;

    FakeHiccup(
        io.antrean.client.FakeJobService.Handler<GetJobRequest, GetJobResponse> delegate,
        int failures) {
      this.delegate = delegate;
      this.failuresLeft = new AtomicInteger(failures);
    }

    GetJobResponse getJob(GetJobRequest request) throws InterruptedException {
      if (failuresLeft.getAndDecrement() > 0) {
        throw Status.UNAVAILABLE.withDescription("restarting").asRuntimeException();
      }
      return delegate.handle(request);
    }
  }
}
