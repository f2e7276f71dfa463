package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.worker.testing.FakeTicker;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import io.grpc.Status;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Heartbeats and what their answers, or their absence, do to running handlers. */
@Timeout(20)
class WorkerLeaseKeepingTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private InProcessCoordinator coordinator;
  private Worker worker;
  private final CountDownLatch finish = new CountDownLatch(1);
  private final Map<Long, CountDownLatch> interrupted = new ConcurrentHashMap<>();
  private final Map<Long, CancellationReason> reasons = new ConcurrentHashMap<>();

  @BeforeEach
  void startCoordinator() throws IOException {
    coordinator = new InProcessCoordinator();
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    finish.countDown();
    if (worker != null) {
      worker.shutdownNow();
      assertThat(worker.awaitTermination(WAIT)).isTrue();
    }
    coordinator.close();
  }

  /** Notes progress, then waits for {@link #finish}, recording an interruption and its reason. */
  private byte[] waitForFinish(JobContext ctx) throws InterruptedException {
    CountDownLatch mine = interrupted.computeIfAbsent(ctx.jobId(), id -> new CountDownLatch(1));
    ctx.progress("working on " + ctx.jobId());
    try {
      finish.await();
      return new byte[] {1};
    } catch (InterruptedException e) {
      ctx.cancellationReason().ifPresent(reason -> reasons.put(ctx.jobId(), reason));
      mine.countDown();
      throw e;
    }
  }

  private boolean awaitInterrupt(long jobId) throws InterruptedException {
    assertThat(Polling.await(WAIT, () -> interrupted.containsKey(jobId))).isTrue();
    return interrupted.get(jobId).await(10, TimeUnit.SECONDS);
  }

  @Test
  void oneHeartbeatCarriesEveryHeldLeaseWithItsLatestProgress() {
    worker =
        TestWorkers.builder(coordinator).concurrency(3).handler("t", this::waitForFinish).build();
    for (int i = 0; i < 3; i++) {
      coordinator.service.enqueue("t", "{}");
    }
    worker.start();

    assertThat(
            Polling.await(
                WAIT,
                () ->
                    coordinator.service.heartbeats.stream()
                        .anyMatch(beat -> beat.getLeasesCount() == 3 && allHaveProgress(beat))))
        .isTrue();
    HeartbeatRequest beat =
        coordinator.service.heartbeats.stream()
            .filter(b -> b.getLeasesCount() == 3 && allHaveProgress(b))
            .findFirst()
            .orElseThrow();
    assertThat(beat.getWorkerId()).isEqualTo(TestWorkers.WORKER_ID);
    assertThat(beat.getLeaseTtl().getSeconds()).isEqualTo(3);
    assertThat(beat.getLeasesList())
        .extracting(LeaseRef::getJobId, LeaseRef::getFencingToken, LeaseRef::getProgress)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(1L, 1001L, "working on 1"),
            org.assertj.core.groups.Tuple.tuple(2L, 1002L, "working on 2"),
            org.assertj.core.groups.Tuple.tuple(3L, 1003L, "working on 3"));
  }

  private static boolean allHaveProgress(HeartbeatRequest beat) {
    return beat.getLeasesList().stream().noneMatch(ref -> ref.getProgress().isEmpty());
  }

  @Test
  void lostAnswerInterruptsOnlyThatHandlerAndReportsNothingForIt() throws InterruptedException {
    coordinator.service.heartbeatPolicy =
        ref ->
            ref.getJobId() == 2 ? LeaseStatus.LEASE_STATUS_LOST : LeaseStatus.LEASE_STATUS_EXTENDED;
    worker = TestWorkers.builder(coordinator).handler("t", this::waitForFinish).build();
    coordinator.service.enqueue("t", "{}");
    coordinator.service.enqueue("t", "{}");
    worker.start();

    assertThat(awaitInterrupt(2)).isTrue();
    assertThat(reasons).containsEntry(2L, CancellationReason.LEASE_LOST);
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 1)).isTrue();
    finish.countDown();

    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0)).isTrue();
    assertThat(coordinator.service.completes)
        .extracting(CompleteRequest::getJobId)
        .containsExactly(1L);
    assertThat(interrupted.get(1L).getCount()).isEqualTo(1);
    assertThat(coordinator.service.fails).isEmpty();
    assertThat(coordinator.service.releases).isEmpty();
  }

  @Test
  void cancelRequestedInterruptsTheHandlerAndReleasesTheJobAsCancelled()
      throws InterruptedException {
    coordinator.service.heartbeatPolicy = ref -> LeaseStatus.LEASE_STATUS_CANCEL_REQUESTED;
    worker = TestWorkers.builder(coordinator).handler("t", this::waitForFinish).build();
    long id = coordinator.service.enqueue("t", "{}");
    worker.start();

    assertThat(awaitInterrupt(id)).isTrue();
    assertThat(Polling.await(WAIT, () -> coordinator.service.releases.size() == 1)).isTrue();
    assertThat(reasons).containsEntry(id, CancellationReason.CANCEL_REQUESTED);
    assertThat(coordinator.service.releases.get(0).getReason()).isEqualTo("cancelled");
    assertThat(coordinator.service.releases.get(0).getFencingToken()).isEqualTo(1001);
    assertThat(coordinator.service.completes).isEmpty();
    assertThat(coordinator.service.fails).isEmpty();
  }

  @Test
  void localDeadlineInterruptsTheHandlerWhenHeartbeatsKeepFailing() throws InterruptedException {
    FakeTicker ticker = new FakeTicker();
    coordinator.service.heartbeatError = Status.UNAVAILABLE;
    worker =
        TestWorkers.builder(coordinator)
            .ticker(ticker)
            .leaseTtl(Duration.ofSeconds(30))
            .heartbeatInterval(Duration.ofSeconds(10))
            .handler("t", this::waitForFinish)
            .build();
    long id = coordinator.service.enqueue("t", "{}");
    worker.start();
    assertThat(Polling.await(WAIT, () -> interrupted.containsKey(id))).isTrue();

    for (int beats = 1; beats <= 2; beats++) {
      ticker.advance(Duration.ofSeconds(10));
      int expected = beats;
      assertThat(Polling.await(WAIT, () -> coordinator.service.heartbeats.size() >= expected))
          .isTrue();
    }
    assertThat(interrupted.get(id).getCount()).as("still running at 20 s of 30").isEqualTo(1);
    ticker.advance(Duration.ofSeconds(9));

    assertThat(awaitInterrupt(id)).isTrue();
    assertThat(reasons).containsEntry(id, CancellationReason.LEASE_EXPIRED);
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0)).isTrue();
    assertThat(coordinator.service.completes).isEmpty();
    assertThat(coordinator.service.fails).isEmpty();
    assertThat(coordinator.service.releases).isEmpty();
  }

  @Test
  void extendedLeaseOutlivesItsTtl() throws InterruptedException {
    FakeTicker ticker = new FakeTicker();
    worker =
        TestWorkers.builder(coordinator)
            .ticker(ticker)
            .leaseTtl(Duration.ofSeconds(30))
            .heartbeatInterval(Duration.ofSeconds(10))
            .handler("t", this::waitForFinish)
            .build();
    long id = coordinator.service.enqueue("t", "{}");
    worker.start();
    assertThat(Polling.await(WAIT, () -> interrupted.containsKey(id))).isTrue();

    for (int beats = 1; beats <= 6; beats++) {
      ticker.advance(Duration.ofSeconds(10));
      int expected = beats;
      assertThat(Polling.await(WAIT, () -> coordinator.service.heartbeats.size() >= expected))
          .isTrue();
    }
    finish.countDown();

    assertThat(Polling.await(WAIT, () -> coordinator.service.completes.size() == 1)).isTrue();
    assertThat(interrupted.get(id).getCount()).isEqualTo(1);
  }
}
