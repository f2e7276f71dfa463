package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.WorkerCallLimits;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.FailRequest;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import io.grpc.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How a handler's return or exception becomes Complete or Fail. */
@Timeout(20)
class WorkerOutcomeTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private InProcessCoordinator coordinator;
  private Worker worker;

  @BeforeEach
  void startCoordinator() throws IOException {
    coordinator = new InProcessCoordinator();
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    if (worker != null) {
      worker.shutdownNow();
      assertThat(worker.awaitTermination(WAIT)).isTrue();
    }
    coordinator.close();
  }

  private void start(JobHandler handler) {
    start(TestWorkers.builder(coordinator).handler("t", handler));
  }

  private void start(WorkerBuilder builder) {
    worker = builder.build();
    worker.start();
  }

  private FailRequest failureOf(JobHandler handler) {
    start(handler);
    coordinator.service.enqueue("t", "{}");
    assertThat(Polling.await(WAIT, () -> !coordinator.service.fails.isEmpty())).isTrue();
    return coordinator.service.fails.get(0);
  }

  @Test
  void returningCompletesTheJobWithItsFencingTokenAndResult() {
    start(ctx -> ("done " + ctx.payloadUtf8()).getBytes(StandardCharsets.UTF_8));
    long id = coordinator.service.enqueue("t", "{\"a\":1}");

    assertThat(Polling.await(WAIT, () -> !coordinator.service.completes.isEmpty())).isTrue();
    CompleteRequest complete = coordinator.service.completes.get(0);
    assertThat(complete.getJobId()).isEqualTo(id);
    assertThat(complete.getFencingToken()).isEqualTo(1001);
    assertThat(complete.getWorkerId()).isEqualTo(TestWorkers.WORKER_ID);
    assertThat(complete.getResult().toStringUtf8()).isEqualTo("done {\"a\":1}");
    assertThat(complete.getResultContentType()).isEqualTo("application/json");
    assertThat(coordinator.service.fails).isEmpty();
  }

  @Test
  void handlerMaySetTheResultContentTypeAndReturnNothing() {
    start(
        ctx -> {
          ctx.resultContentType("text/plain");
          return null;
        });
    coordinator.service.enqueue("t", "");

    assertThat(Polling.await(WAIT, () -> !coordinator.service.completes.isEmpty())).isTrue();
    assertThat(coordinator.service.completes.get(0).getResult().isEmpty()).isTrue();
    assertThat(coordinator.service.completes.get(0).getResultContentType()).isEqualTo("text/plain");
  }

  @Test
  void retryableExceptionFailsRetryableWithRetryAfter() {
    FailRequest fail =
        failureOf(
            ctx -> {
              throw new RetryableException("429 from upstream", Duration.ofSeconds(7));
            });

    assertThat(fail.getKind()).isEqualTo(ErrorKind.ERROR_KIND_RETRYABLE);
    assertThat(fail.getRetryAfter().getSeconds()).isEqualTo(7);
    assertThat(fail.getErrorType()).isEqualTo(RetryableException.class.getName());
    assertThat(fail.getErrorMessage()).isEqualTo("429 from upstream");
    assertThat(fail.getStackTrace()).contains("WorkerOutcomeTest");
    assertThat(fail.getFencingToken()).isEqualTo(1001);
  }

  @Test
  void permanentExceptionFailsPermanentWithoutRetryAfter() {
    FailRequest fail =
        failureOf(
            ctx -> {
              throw new PermanentException("no such customer");
            });

    assertThat(fail.getKind()).isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
    assertThat(fail.hasRetryAfter()).isFalse();
    assertThat(fail.getErrorType()).isEqualTo(PermanentException.class.getName());
  }

  @Test
  void aResultPastOneMibFailsTheJobPermanentlyInsteadOfCompletingIt() {
    int tooLong = WorkerCallLimits.MAX_RESULT_BYTES + 1;
    FailRequest fail = failureOf(ctx -> new byte[tooLong]);

    assertThat(fail.getKind()).isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
    assertThat(fail.getErrorType()).isEqualTo(ResultTooLargeException.class.getName());
    assertThat(fail.getErrorMessage()).contains(tooLong + " bytes");
    assertThat(coordinator.service.completes).isEmpty();
  }

  @Test
  void aResultOfOneMibCompletesTheJob() {
    start(ctx -> new byte[WorkerCallLimits.MAX_RESULT_BYTES]);
    coordinator.service.enqueue("t", "{}");

    assertThat(Polling.await(WAIT, () -> !coordinator.service.completes.isEmpty())).isTrue();
    assertThat(coordinator.service.completes.get(0).getResult().size()).isEqualTo(1 << 20);
    assertThat(coordinator.service.fails).isEmpty();
  }

  @Test
  void uncheckedBugFailsPermanent() {
    FailRequest fail =
        failureOf(
            ctx -> {
              throw new NullPointerException("oops");
            });

    assertThat(fail.getKind()).isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
    assertThat(fail.getErrorType()).isEqualTo("java.lang.NullPointerException");
  }

  @Test
  void ioTroubleFailsRetryable() {
    FailRequest fail =
        failureOf(
            ctx -> {
              throw new java.net.SocketTimeoutException("read timed out");
            });

    assertThat(fail.getKind()).isEqualTo(ErrorKind.ERROR_KIND_RETRYABLE);
    assertThat(fail.hasRetryAfter()).isFalse();
  }

  @Test
  void errorThrownByHandlerIsReportedNotUncaught() {
    FailRequest fail =
        failureOf(
            ctx -> {
              throw new StackOverflowError("deep");
            });

    assertThat(fail.getKind()).isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
    assertThat(fail.getErrorType()).isEqualTo("java.lang.StackOverflowError");
  }

  @Test
  void customClassifierDecidesTheKind() {
    start(
        TestWorkers.builder(coordinator)
            .errorClassifier(error -> FailureKind.RETRYABLE)
            .handler(
                "t",
                ctx -> {
                  throw new IllegalStateException("normally permanent");
                }));
    coordinator.service.enqueue("t", "{}");

    assertThat(Polling.await(WAIT, () -> !coordinator.service.fails.isEmpty())).isTrue();
    assertThat(coordinator.service.fails.get(0).getKind())
        .isEqualTo(ErrorKind.ERROR_KIND_RETRYABLE);
  }

  @Test
  void completeIsRetriedWhileTheCoordinatorIsUnavailable() {
    coordinator.service.completeFailures.set(2);
    start(ctx -> new byte[] {1});
    coordinator.service.enqueue("t", "{}");

    assertThat(Polling.await(WAIT, () -> coordinator.service.completes.size() == 3)).isTrue();
    assertThat(coordinator.service.completes)
        .extracting(CompleteRequest::getJobId)
        .containsOnly(1L);
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0)).isTrue();
  }

  @Test
  void lostLeaseOnUnaryCompleteIsNotRetried() throws InterruptedException {
    coordinator.service.completeBatchImplemented = false;
    coordinator.service.completeFailures.set(5);
    coordinator.service.completeError = Status.FAILED_PRECONDITION.withDescription("LEASE_LOST");
    start(ctx -> new byte[] {1});
    coordinator.service.enqueue("t", "{}");

    assertThat(
            Polling.await(
                WAIT, () -> worker.heldLeases() == 0 && !coordinator.service.completes.isEmpty()))
        .isTrue();
    coordinator.service.enqueue("t", "{}");
    assertThat(Polling.await(WAIT, () -> coordinator.service.completes.size() >= 2)).isTrue();
    assertThat(coordinator.service.unaryCompletes)
        .extracting(CompleteRequest::getJobId)
        .containsExactly(1L, 2L);
  }
}
