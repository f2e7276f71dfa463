package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerInfo;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The poll loop: what it asks for, how much, and how it survives an unreachable coordinator. */
@Timeout(20)
class WorkerPollingTest {
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

  @Test
  void leaseAsksForTheHandledTypesOfItsQueueWithTtlAndWait() {
    worker =
        TestWorkers.builder(coordinator)
            .queue("mail")
            .handler("b.type", ctx -> null)
            .handler("a.type", ctx -> null)
            .build();
    worker.start();

    assertThat(Polling.await(WAIT, () -> !coordinator.service.leases.isEmpty())).isTrue();
    LeaseRequest lease = coordinator.service.leases.get(0);
    assertThat(lease.getWorkerId()).isEqualTo(TestWorkers.WORKER_ID);
    assertThat(lease.getQueue()).isEqualTo("mail");
    assertThat(lease.getTypesList()).containsExactly("a.type", "b.type");
    assertThat(lease.getMaxJobs()).isEqualTo(2);
    assertThat(lease.getLeaseTtl().getSeconds()).isEqualTo(3);
    assertThat(lease.getWait().getSeconds()).isEqualTo(1);
  }

  @Test
  void leaseTellsTheCoordinatorWhoTheWorkerIs() {
    worker =
        TestWorkers.builder(coordinator)
            .queue("mail")
            .concurrency(3)
            .handler("b.type", ctx -> null)
            .handler("a.type", ctx -> null)
            .build();
    worker.start();

    assertThat(Polling.await(WAIT, () -> !coordinator.service.leases.isEmpty())).isTrue();
    WorkerInfo info = coordinator.service.leases.get(0).getWorker();
    assertThat(info.getHost()).isNotBlank();
    assertThat(info.getVersion()).isNotBlank().doesNotContain("${");
    assertThat(info.getQueuesList()).containsExactly("mail");
    assertThat(info.getTypesList()).containsExactly("a.type", "b.type");
    assertThat(info.getConcurrency()).isEqualTo(3);
    assertThat(info.hasHeartbeatInterval()).isTrue();
  }

  @Test
  void leasesNoMoreJobsThanItHasFreeSlots() throws InterruptedException {
    CountDownLatch started = new CountDownLatch(3);
    CountDownLatch finish = new CountDownLatch(1);
    worker =
        TestWorkers.builder(coordinator)
            .concurrency(3)
            .handler(
                "t",
                ctx -> {
                  started.countDown();
                  finish.await();
                  return null;
                })
            .build();
    for (int i = 0; i < 5; i++) {
      coordinator.service.enqueue("t", "{}");
    }
    worker.start();

    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    int beatsSoFar = coordinator.service.heartbeats.size();
    // Give a poll loop that ignored its slots many chances to ask for more while all are busy.
    assertThat(Polling.await(WAIT, () -> coordinator.service.heartbeats.size() >= beatsSoFar + 5))
        .isTrue();
    assertThat(coordinator.service.outstanding()).isEqualTo(3);
    assertThat(coordinator.service.leases.get(0).getMaxJobs()).isEqualTo(3);
    finish.countDown();

    assertThat(Polling.await(WAIT, () -> coordinator.service.completes.size() == 5)).isTrue();
    List<LeaseRequest> leases = List.copyOf(coordinator.service.leases);
    for (int i = 0; i < leases.size(); i++) {
      int held = coordinator.service.outstandingAtLease.get(i);
      assertThat(leases.get(i).getMaxJobs())
          .as("lease %d asked for %d jobs while holding %d", i, leases.get(i).getMaxJobs(), held)
          .isBetween(1, 3 - held);
    }
  }

  @Test
  void pollLoopBacksOffExponentiallyAndRecoversAfterUnavailable() {
    coordinator.service.leaseFailures.set(3);
    coordinator.service.enqueue("t", "{}");
    worker = TestWorkers.builder(coordinator).handler("t", ctx -> new byte[0]).build();
    worker.start();

    assertThat(Polling.await(WAIT, () -> coordinator.service.completes.size() == 1)).isTrue();
    List<Long> at = coordinator.service.leaseNanos;
    assertThat(at.size()).isGreaterThanOrEqualTo(4);
    // Backoff 20 ms doubling, with jitter between half and all of each step.
    assertThat(at.get(1) - at.get(0)).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(10));
    assertThat(at.get(2) - at.get(1)).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    assertThat(at.get(3) - at.get(2)).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(40));
  }

  @Test
  void jobOfATypeWithoutHandlerFailsRetryableSoAnotherWorkerCanRunIt() {
    worker = TestWorkers.builder(coordinator).handler("t", ctx -> null).build();
    coordinator.service.enqueue("unknown.type", "{}");
    worker.start();

    assertThat(Polling.await(WAIT, () -> coordinator.service.fails.size() == 1)).isTrue();
    assertThat(coordinator.service.fails.get(0).getErrorMessage()).contains("unknown.type");
    assertThat(coordinator.service.fails.get(0).getKind())
        .isEqualTo(io.antrean.proto.v1.ErrorKind.ERROR_KIND_RETRYABLE);
  }

  @Test
  void emptyAnswersArePacedSoAnIdleWorkerDoesNotSpin() {
    worker =
        TestWorkers.builder(coordinator).pollWait(Duration.ZERO).handler("t", ctx -> null).build();
    worker.start();

    assertThat(Polling.await(WAIT, () -> coordinator.service.leases.size() >= 9)).isTrue();
    List<Long> at = coordinator.service.leaseNanos;
    long averageGapNanos = (at.get(8) - at.get(0)) / 8;
    assertThat(coordinator.service.leases.get(0).getWait().getSeconds()).isZero();
    assertThat(averageGapNanos).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(40));
  }
}
