package io.antrean.worker;

import io.antrean.worker.testing.InProcessCoordinator;
import java.time.Duration;

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
}
