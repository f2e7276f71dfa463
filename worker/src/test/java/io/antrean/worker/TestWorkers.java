package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CompleteRequest;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import java.time.Duration;
import java.util.List;

/** Worker settings that make tests fast: short polls, short backoff, frequent heartbeats. */
final class TestWorkers {
  static final String WORKER_ID = "test-worker";

  private TestWorkers() {}

  static WorkerBuilder builder(InProcessCoordinator coordinator) {
    return Worker.builder()
        .channel(coordinator.channel)
        .workerId(WORKER_ID)
        .concurrency(2)
        .leaseTtl(Duration.ofSeconds(3))
        .heartbeatInterval(Duration.ofMillis(50))
        .pollWait(Duration.ofSeconds(1))
        .pollBackoff(Duration.ofMillis(20), Duration.ofMillis(100))
        .shutdownGrace(Duration.ofSeconds(5));
  }

  /**
   * Enqueues {@code jobs} jobs of type "t", starts {@code worker} and waits until each has been
   * completed once and the worker holds nothing; the caller shuts the worker down.
   */
  static void runAll(InProcessCoordinator coordinator, Worker worker, int jobs, Duration wait) {
    for (int i = 0; i < jobs; i++) {
      coordinator.service.enqueue("t", "{}");
    }
    worker.start();
    assertThat(Polling.await(wait, () -> coordinator.service.completes.size() >= jobs)).isTrue();
    assertThat(completedJobIds(coordinator)).hasSize(jobs).doesNotHaveDuplicates();
    assertThat(Polling.await(wait, () -> worker.heldLeases() == 0)).isTrue();
    assertThat(coordinator.service.outstanding()).isZero();
  }

  /** The job ids of the coordinator's Complete calls, in the order they came. */
  static List<Long> completedJobIds(InProcessCoordinator coordinator) {
    return coordinator.service.completes.stream().map(CompleteRequest::getJobId).toList();
  }
}
