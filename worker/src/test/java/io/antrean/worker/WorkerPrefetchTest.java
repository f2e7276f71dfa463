package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.ReleaseRequest;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs leased beyond the handler threads: as many as the handlers finish during a CompleteBatch
 * round trip, at most the prefetch; none for handlers slower than that; released unstarted when the
 * worker shuts down.
 */
@Timeout(60)
class WorkerPrefetchTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private InProcessCoordinator coordinator;
  private Worker worker;
  private final Set<Long> ran = ConcurrentHashMap.newKeySet();

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

  private void runAll(int jobs, int concurrency, int prefetch, JobHandler handler) {
    worker =
        TestWorkers.builder(coordinator)
            .concurrency(concurrency)
            .prefetch(prefetch)
            .handler("t", handler)
            .build();
    TestWorkers.runAll(coordinator, worker, jobs, WAIT);
  }

  @Test
  void fastHandlersKeepJobsLeasedAheadOfTheThreadsButNoMoreThanThePrefetch() {
    runAll(600, 2, 3, ctx -> null);

    assertThat(coordinator.service.maxOutstanding.get()).isBetween(3, 2 + 3);
  }

  @Test
  void withPrefetchOffTheWorkerHoldsNoMoreJobsThanThreads() {
    runAll(600, 2, 0, ctx -> null);

    assertThat(coordinator.service.maxOutstanding.get()).isBetween(1, 2);
  }

  @Test
  void handlersSlowerThanTheRoundTripGetNoJobLeasedAhead() {
    // A round trip in process takes well under a millisecond; two threads finish a job of 200 ms
    // each in 100 ms, so not even one job fits in a round trip.
    runAll(
        12,
        2,
        8,
        ctx -> {
          TimeUnit.MILLISECONDS.sleep(200);
          return null;
        });

    assertThat(coordinator.service.maxOutstanding.get()).isBetween(1, 2);
  }

  @Test
  void shutdownReleasesTheJobsLeasedAheadWithoutRunningThem() throws InterruptedException {
    CountDownLatch blocking = new CountDownLatch(1);
    CountDownLatch unblock = new CountDownLatch(1);
    CountDownLatch blockerEnded = new CountDownLatch(1);
    // Fast jobs first, so that the worker has measured both its handlers and its round trips
    // when the blocking job and the jobs after it come.
    for (int i = 0; i < 300; i++) {
      coordinator.service.enqueue("t", "fast");
    }
    long blocker = coordinator.service.enqueue("t", "block");
    for (int i = 0; i < 10; i++) {
      coordinator.service.enqueue("t", "fast");
    }
    worker =
        TestWorkers.builder(coordinator)
            .concurrency(1)
            .prefetch(2)
            .handler(
                "t",
                ctx -> {
                  ran.add(ctx.jobId());
                  if ("block".equals(ctx.payloadUtf8())) {
                    blocking.countDown();
                    try {
                      unblock.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    } finally {
                      blockerEnded.countDown();
                    }
                  }
                  return null;
                })
            .build();
    worker.start();
    assertThat(blocking.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    // The one thread runs the blocking job, every job before it has completed, and the worker
    // holds two more, which wait for the thread.
    assertThat(
            Polling.await(
                WAIT,
                () -> worker.heldLeases() == 3 && coordinator.service.completes.size() == 300))
        .isTrue();
    assertThat(ran).hasSize(301);

    worker.shutdown();

    // Within the grace, while the blocking job still runs, the two are handed back unstarted.
    assertThat(Polling.await(WAIT, () -> coordinator.service.outstanding() == 1)).isTrue();
    assertThat(blockerEnded.getCount()).as("the blocking job still runs").isOne();
    List<Long> released =
        coordinator.service.releases.stream().map(ReleaseRequest::getJobId).toList();
    assertThat(released).hasSize(2).doesNotContain(blocker).noneMatch(ran::contains);
    assertThat(coordinator.service.releases)
        .allSatisfy(r -> assertThat(r.getReason()).isEqualTo("shutdown"));
    unblock.countDown();
    assertThat(worker.awaitTermination(WAIT)).isTrue();
    assertThat(TestWorkers.completedJobIds(coordinator))
        .contains(blocker)
        .doesNotContainAnyElementsOf(released);
    assertThat(coordinator.service.outstanding()).isZero();
  }
}
