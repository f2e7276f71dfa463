package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.core.WorkerRegistry.Liveness;
import io.antrean.coordinator.core.WorkerRegistry.WorkerView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerRegistryTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final WorkerIdentity W1 =
      new WorkerIdentity(
          "host-a", "1.2.3", List.of("default"), List.of("email.send"), 8, Duration.ofSeconds(2));

  private final WorkerRegistry registry = new WorkerRegistry();

  @Test
  void aLeaseCallRegistersTheWorkerWithWhatItSaysAndTheLeasesItWasGranted() {
    registry.leaseStarted("w1", W1, "default", List.of("email.send"), T0);
    registry.leaseEnded("w1", 3, T0.plusMillis(5));

    WorkerView w = single(T0.plusMillis(5));
    assertThat(w.workerId()).isEqualTo("w1");
    assertThat(w.identity()).isEqualTo(W1);
    assertThat(w.jobsHeld()).isEqualTo(3);
    assertThat(w.liveness()).isEqualTo(Liveness.LIVE);
    assertThat(w.firstSeen()).isEqualTo(T0);
    assertThat(w.lastSeen()).isEqualTo(T0.plusMillis(5));
    assertThat(w.waitingLeaseCalls()).isZero();
  }

  @Test
  void heartbeatsSetTheHeldCountAndReportsLowerIt() {
    registry.leaseStarted("w1", W1, "default", List.of(), T0);
    registry.leaseEnded("w1", 4, T0);
    registry.heartbeat("w1", W1, 3, T0.plusSeconds(1));
    assertThat(single(T0.plusSeconds(1)).jobsHeld()).isEqualTo(3);

    registry.reported("w1", 2, T0.plusSeconds(2));
    assertThat(single(T0.plusSeconds(2)).jobsHeld()).isEqualTo(1);
    registry.reported("w1", 5, T0.plusSeconds(2));
    assertThat(single(T0.plusSeconds(2)).jobsHeld()).isZero();
  }

  @Test
  void aSilentWorkerIsLostAfterThreeIntervalsThenDropped() {
    registry.heartbeat("w1", W1, 1, T0);

    assertThat(single(T0.plusSeconds(6)).liveness()).isEqualTo(Liveness.LIVE);
    assertThat(single(T0.plusMillis(6001)).liveness()).isEqualTo(Liveness.LOST);
    assertThat(registry.runOnce(T0.plusSeconds(40))).isZero();
    assertThat(single(T0.plusSeconds(40)).liveness()).isEqualTo(Liveness.LOST);

    assertThat(registry.list(T0.plusMillis(40_001))).isEmpty();
    assertThat(registry.runOnce(T0.plusMillis(40_001))).isEqualTo(1);
    registry.heartbeat("w1", W1, 0, T0.plusSeconds(50));
    assertThat(single(T0.plusSeconds(50)).firstSeen())
        .as("a worker back after being forgotten starts afresh")
        .isEqualTo(T0.plusSeconds(50));
  }

  @Test
  void aWorkerWaitingInALeaseCallIsNeverLost() {
    registry.leaseStarted("w1", W1, "default", List.of(), T0);

    WorkerView waiting = single(T0.plusSeconds(60));
    assertThat(waiting.liveness()).isEqualTo(Liveness.LIVE);
    assertThat(waiting.waitingLeaseCalls()).isEqualTo(1);
    assertThat(waiting.lastSeen()).isEqualTo(T0.plusSeconds(60));
    assertThat(registry.runOnce(T0.plusSeconds(600))).isZero();

    registry.leaseEnded("w1", 0, T0.plusSeconds(60));
    assertThat(single(T0.plusSeconds(67)).liveness()).isEqualTo(Liveness.LOST);
  }

  @Test
  void aWorkerThatSaysNothingIsShownWithTheQueuesAndTypesItAsksForAndTheDefaultInterval() {
    registry.leaseStarted("w2", null, "mail", List.of("b", "a"), T0);
    registry.leaseEnded("w2", 0, T0);
    registry.leaseStarted("w2", null, "reports", List.of("a"), T0);
    registry.leaseEnded("w2", 0, T0);

    WorkerView w = single(T0.plusSeconds(30));
    assertThat(w.identity().queues()).containsExactly("mail", "reports");
    assertThat(w.identity().types()).containsExactly("a", "b");
    assertThat(w.identity().host()).isEmpty();
    assertThat(w.liveness()).isEqualTo(Liveness.LIVE);
    assertThat(single(T0.plusMillis(30_001)).liveness()).isEqualTo(Liveness.LOST);
  }

  @Test
  void workersAreListedById() {
    registry.heartbeat("b", W1, 0, T0);
    registry.heartbeat("a", W1, 0, T0);
    registry.heartbeat("c", W1, 0, T0);

    assertThat(registry.list(T0)).extracting(WorkerView::workerId).containsExactly("a", "b", "c");
  }

  private WorkerView single(Instant now) {
    List<WorkerView> all = registry.list(now);
    assertThat(all).hasSize(1);
    return all.get(0);
  }
}
