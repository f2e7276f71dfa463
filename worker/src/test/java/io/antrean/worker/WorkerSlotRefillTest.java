package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.worker.testing.InProcessCoordinator;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The slots of finished jobs refilled by the CompleteBatch that reports them (lease_next): every
 * job still runs once, the worker never holds more jobs than its concurrency (prefetch off; with
 * it, see WorkerPrefetchTest), and a coordinator that ignores lease_next or a worker shutting down
 * fall back to the poll loop's Lease.
 */
@Timeout(30)
class WorkerSlotRefillTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final int CONCURRENCY = 8;

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

  private void runAll(int jobs) {
    worker =
        TestWorkers.builder(coordinator)
            .concurrency(CONCURRENCY)
            .prefetch(0)
            .handler("t", ctx -> null)
            .build();
    TestWorkers.runAll(coordinator, worker, jobs, WAIT);
    assertThat(coordinator.service.maxOutstanding.get()).isBetween(1, CONCURRENCY);
    assertThat(coordinator.service.invalidCompleteBatches).hasValue(0);
  }

  @Test
  void eachBatchAsksForAsManyJobsAsItReportsAndTheAnswerRunsThem() {
    runAll(400);

    assertThat(coordinator.service.leasedAfterComplete.get()).isPositive();
    for (CompleteBatchRequest batch : coordinator.service.completeBatches) {
      assertThat(batch.hasLeaseNext()).isTrue();
      LeaseRequest next = batch.getLeaseNext();
      assertThat(next.getMaxJobs()).isEqualTo(batch.getItemsCount());
      assertThat(next.hasWait()).isFalse();
      assertThat(next.getTypesList()).containsExactly("t");
      assertThat(next.getWorkerId()).isEqualTo(TestWorkers.WORKER_ID);
    }
  }

  @Test
  void aCoordinatorThatIgnoresLeaseNextGetsEveryJobLeasedByLease() {
    coordinator.service.leaseNextImplemented = false;

    runAll(200);

    assertThat(coordinator.service.leasedAfterComplete.get()).isZero();
    assertThat(coordinator.service.completeBatches)
        .allSatisfy(batch -> assertThat(batch.hasLeaseNext()).isTrue());
  }

  @Test
  void noRefillIsAskedForOnceShutdownBegins() throws InterruptedException {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch running = new CountDownLatch(2);
    long first = coordinator.service.enqueue("t", "{}");
    long second = coordinator.service.enqueue("t", "{}");
    // Prefetch off, as in the rest of this class: a Lease for jobs ahead of the two busy slots,
    // cancelled by the shutdown while the coordinator answers it, would leave its jobs leased to
    // nobody until they expire, which is what leases are for, not what this test is about. The
    // slots freed once the shutdown began send no Lease (WorkerRuntime.shutdown stops the poll
    // loop at once), however soon they free.
    worker =
        TestWorkers.builder(coordinator)
            .prefetch(0)
            .handler(
                "t",
                ctx -> {
                  running.countDown();
                  release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                  return null;
                })
            .build();
    worker.start();
    assertThat(running.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    for (int i = 0; i < 5; i++) {
      coordinator.service.enqueue("t", "{}");
    }

    worker.shutdown();
    release.countDown();

    assertThat(worker.awaitTermination(WAIT)).isTrue();
    assertThat(TestWorkers.completedJobIds(coordinator)).containsExactlyInAnyOrder(first, second);
    assertThat(coordinator.service.completeBatches)
        .isNotEmpty()
        .allSatisfy(batch -> assertThat(batch.hasLeaseNext()).isFalse());
    assertThat(coordinator.service.leasedAfterComplete.get()).isZero();
    // The two slots freed after the shutdown began asked for nothing either: one Lease, the first.
    assertThat(coordinator.service.leases).hasSize(1);
    assertThat(coordinator.service.outstanding()).isZero();
  }
}
