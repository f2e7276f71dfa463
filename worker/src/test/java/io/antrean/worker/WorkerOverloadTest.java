package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A coordinator refusing calls as overloaded (RESOURCE_EXHAUSTED, OVERLOADED, RetryInfo): the poll
 * loop and the completion sender wait at least the coordinator's hint and send again.
 */
@Timeout(30)
class WorkerOverloadTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final long HINT_MILLIS = 400;

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

  static StatusRuntimeException overloaded(long retryMillis) {
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.RESOURCE_EXHAUSTED.getNumber())
            .setMessage("the coordinator holds too many bytes in flight")
            .addDetails(
                Any.pack(
                    ErrorInfo.newBuilder()
                        .setReason("OVERLOADED")
                        .setDomain("antrean.io")
                        .putMetadata("limit", "in_flight_bytes")
                        .build()))
            .addDetails(
                Any.pack(
                    RetryInfo.newBuilder()
                        .setRetryDelay(
                            com.google.protobuf.Duration.newBuilder()
                                .setNanos((int) retryMillis * 1_000_000))
                        .build()))
            .build());
  }

  private static void assertGapsAtLeast(List<Long> nanos, int gaps, long millis) {
    assertThat(nanos.size()).isGreaterThan(gaps);
    for (int i = 1; i <= gaps; i++) {
      assertThat(nanos.get(i) - nanos.get(i - 1))
          .as("wait before attempt %d", i + 1)
          .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(millis));
    }
  }

  @Test
  void aCompletionRefusedAsOverloadedIsSentAgainAfterTheHint() {
    coordinator.service.completeException = overloaded(HINT_MILLIS);
    coordinator.service.completeFailures.set(2);
    worker = TestWorkers.builder(coordinator).handler("t", ctx -> new byte[] {1}).build();
    worker.start();
    coordinator.service.enqueue("t", "{}");

    assertThat(Polling.await(WAIT, () -> coordinator.service.completes.size() == 3)).isTrue();
    assertThat(coordinator.service.completes)
        .extracting(CompleteRequest::getJobId)
        .containsOnly(1L);
    assertGapsAtLeast(coordinator.service.completeNanos, 2, HINT_MILLIS);
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0)).isTrue();
  }

  @Test
  void aUnaryCompleteRefusedAsOverloadedIsSentAgainAfterTheHint() {
    coordinator.service.completeBatchImplemented = false;
    coordinator.service.completeException = overloaded(HINT_MILLIS);
    coordinator.service.completeFailures.set(2);
    worker = TestWorkers.builder(coordinator).handler("t", ctx -> new byte[] {1}).build();
    worker.start();
    coordinator.service.enqueue("t", "{}");

    assertThat(Polling.await(WAIT, () -> coordinator.service.unaryCompletes.size() == 3)).isTrue();
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0)).isTrue();
  }

  @Test
  void thePollLoopWaitsAtLeastTheHintAfterAnOverloadedLease() {
    coordinator.service.leaseException = overloaded(HINT_MILLIS);
    coordinator.service.leaseFailures.set(2);
    coordinator.service.enqueue("t", "{}");
    worker = TestWorkers.builder(coordinator).handler("t", ctx -> new byte[0]).build();
    worker.start();

    assertThat(Polling.await(WAIT, () -> coordinator.service.completes.size() == 1)).isTrue();
    // The poll loop's own backoff starts at 20 ms; the hint says 400 ms.
    assertGapsAtLeast(coordinator.service.leaseNanos, 2, HINT_MILLIS);
  }
}
