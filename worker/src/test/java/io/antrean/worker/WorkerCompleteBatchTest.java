package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Successful jobs reported through CompleteBatch: batching, slots, fallback and shutdown. */
@Timeout(30)
class WorkerCompleteBatchTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private InProcessCoordinator coordinator;
  private Worker worker;
  private final CountDownLatch gate = new CountDownLatch(1);

  @BeforeEach
  void startCoordinator() throws IOException {
    coordinator = new InProcessCoordinator();
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    gate.countDown();
    if (worker != null) {
      worker.shutdownNow();
      assertThat(worker.awaitTermination(WAIT)).isTrue();
    }
    coordinator.close();
  }

  private void start(WorkerBuilder builder) {
    worker = builder.build();
    worker.start();
  }

  private List<Long> completedJobIds() {
    return coordinator.service.completes.stream().map(CompleteRequest::getJobId).toList();
  }

  private int heartbeatsCarrying(long jobId) {
    return (int)
        coordinator.service.heartbeats.stream()
            .map(HeartbeatRequest::getLeasesList)
            .filter(refs -> refs.stream().map(LeaseRef::getJobId).anyMatch(id -> id == jobId))
            .count();
  }

  @Test
  void aLoneJobIsCompletedAtOnceInABatchOfItsOwn() {
    start(TestWorkers.builder(coordinator).handler("t", ctx -> new byte[] {42}));
    long id = coordinator.service.enqueue("t", "{}");

    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0 && completedJobIds().size() == 1))
        .isTrue();
    assertThat(coordinator.service.completeBatches).hasSize(1);
    CompleteBatchRequest batch = coordinator.service.completeBatches.get(0);
    assertThat(batch.getWorkerId()).isEqualTo(TestWorkers.WORKER_ID);
    assertThat(batch.getItemsList())
        .extracting(CompleteItem::getJobId, CompleteItem::getFencingToken)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id, 1001L));
    assertThat(batch.getItems(0).getResult().byteAt(0)).isEqualTo((byte) 42);
    assertThat(coordinator.service.unaryCompletes).isEmpty();
  }

  @Test
  void aJobKeepsItsSlotAndItsHeartbeatsUntilItsBatchIsAnswered() {
    AtomicInteger runs = new AtomicInteger();
    coordinator.service.completeBatchGate = gate;
    start(
        TestWorkers.builder(coordinator)
            .concurrency(1)
            .handler(
                "t",
                ctx -> {
                  runs.incrementAndGet();
                  return null;
                }));
    long first = coordinator.service.enqueue("t", "{}");
    coordinator.service.enqueue("t", "{}");
    assertThat(Polling.await(WAIT, () -> coordinator.service.completeBatches.size() == 1)).isTrue();

    int beats = heartbeatsCarrying(first);
    // Many heartbeats while the answer is held: a freed slot would have leased the second job.
    assertThat(Polling.await(WAIT, () -> heartbeatsCarrying(first) >= beats + 5)).isTrue();
    assertThat(runs).hasValue(1);
    assertThat(coordinator.service.outstanding()).isEqualTo(1);
    gate.countDown();

    assertThat(Polling.await(WAIT, () -> completedJobIds().size() == 2)).isTrue();
    assertThat(runs).hasValue(2);
  }

  @Test
  void aLeaseLostItemIsNotRetriedAndTheWorkerGoesOn() {
    coordinator.service.completePolicy =
        jobId ->
            jobId == 1
                ? CompleteStatus.COMPLETE_STATUS_LEASE_LOST
                : CompleteStatus.COMPLETE_STATUS_COMPLETED;
    start(TestWorkers.builder(coordinator).handler("t", ctx -> null));
    coordinator.service.enqueue("t", "{}");
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0 && completedJobIds().size() == 1))
        .isTrue();

    coordinator.service.enqueue("t", "{}");

    assertThat(Polling.await(WAIT, () -> completedJobIds().size() == 2)).isTrue();
    assertThat(completedJobIds()).containsExactly(1L, 2L);
    assertThat(coordinator.service.fails).isEmpty();
    assertThat(coordinator.service.releases).isEmpty();
  }

  @Test
  void aCoordinatorWithoutCompleteBatchGetsUnaryCompletesForTheRestOfTheWorkersLife() {
    coordinator.service.completeBatchImplemented = false;
    start(TestWorkers.builder(coordinator).handler("t", ctx -> null));
    coordinator.service.enqueue("t", "{}");
    assertThat(Polling.await(WAIT, () -> coordinator.service.unaryCompletes.size() == 1)).isTrue();

    coordinator.service.enqueue("t", "{}");
    coordinator.service.enqueue("t", "{}");

    assertThat(Polling.await(WAIT, () -> coordinator.service.unaryCompletes.size() == 3)).isTrue();
    assertThat(coordinator.service.unaryCompletes)
        .extracting(CompleteRequest::getJobId)
        .containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(coordinator.service.completeBatches).hasSize(1);
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0)).isTrue();
  }

  @Test
  void gracefulShutdownWaitsForTheCompleteBatchInFlight() throws InterruptedException {
    coordinator.service.completeBatchGate = gate;
    start(TestWorkers.builder(coordinator).handler("t", ctx -> null));
    long id = coordinator.service.enqueue("t", "{}");
    assertThat(Polling.await(WAIT, () -> coordinator.service.completeBatches.size() == 1)).isTrue();

    worker.shutdown();
    int beats = heartbeatsCarrying(id);
    // The drain goes on heartbeating the job whose answer is held.
    assertThat(Polling.await(WAIT, () -> heartbeatsCarrying(id) >= beats + 3)).isTrue();
    assertThat(worker.isTerminated()).isFalse();
    assertThat(worker.heldLeases()).isEqualTo(1);
    gate.countDown();

    assertThat(worker.awaitTermination(WAIT)).isTrue();
    assertThat(completedJobIds()).containsExactly(id);
    assertThat(coordinator.service.releases).isEmpty();
    assertThat(coordinator.service.outstanding()).isZero();
  }

  @Test
  void manyJobsAreEachCompletedOnceInBatchesOfDistinctJobs() {
    int jobs = 300;
    for (int i = 0; i < jobs; i++) {
      coordinator.service.enqueue("t", "{}");
    }
    start(TestWorkers.builder(coordinator).concurrency(8).handler("t", ctx -> null));

    assertThat(Polling.await(WAIT, () -> completedJobIds().size() >= jobs)).isTrue();
    assertThat(completedJobIds()).hasSize(jobs).doesNotHaveDuplicates();
    assertThat(coordinator.service.invalidCompleteBatches).hasValue(0);
    for (CompleteBatchRequest batch : coordinator.service.completeBatches) {
      assertThat(batch.getItemsList()).extracting(CompleteItem::getJobId).doesNotHaveDuplicates();
    }
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0)).isTrue();
  }

  @Test
  void longResultsSplitTheBatchSoThatNoCallGoesPastTheCoordinatorsRequestLimit() {
    int resultBytes = 700 << 10;
    AtomicInteger runs = new AtomicInteger();
    coordinator.service.completeBatchGate = gate;
    start(
        TestWorkers.builder(coordinator)
            .concurrency(8)
            .handler(
                "t",
                ctx -> {
                  runs.incrementAndGet();
                  return new byte[resultBytes];
                }));
    coordinator.service.enqueue("t", "{}");
    assertThat(Polling.await(WAIT, () -> coordinator.service.completeBatches.size() == 1)).isTrue();
    for (int i = 0; i < 7; i++) {
      coordinator.service.enqueue("t", "{}");
    }
    // Seven results of 700 KiB pending together while the first batch is held: 4.8 MiB.
    assertThat(Polling.await(WAIT, () -> runs.get() == 8)).isTrue();
    gate.countDown();

    assertThat(Polling.await(WAIT, () -> completedJobIds().size() == 8)).isTrue();
    assertThat(completedJobIds()).doesNotHaveDuplicates();
    assertThat(coordinator.service.completeBatches)
        .allSatisfy(
            batch ->
                assertThat(batch.getItemsList().stream().mapToLong(i -> i.getResult().size()).sum())
                    .isLessThan(3L << 20))
        .hasSizeGreaterThan(3);
  }
}
