package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.proto.v1.WorkerInfo;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.antrean.worker.CancellationReason;
import io.antrean.worker.testing.FakeTicker;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import io.grpc.Status;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The lease keeper driven step by step: time is a fake ticker, steps are runOnce(now). */
@Timeout(20)
class LeaseKeeperTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final long SECOND = 1_000_000_000L;

  private final FakeTicker ticker = new FakeTicker();
  private final long start = ticker.nanos();
  private final LeaseTable leases = new LeaseTable();
  private final ExecutorService keeperThread = Executors.newSingleThreadExecutor();
  private InProcessCoordinator coordinator;
  private LeaseKeeper keeper;

  @BeforeEach
  void setUp() throws IOException {
    coordinator = new InProcessCoordinator();
    keeper =
        new LeaseKeeper(
            WorkerServiceGrpc.newStub(coordinator.channel),
            "w-1",
            WorkerInfo.newBuilder().setHost("h").setConcurrency(2).build(),
            Duration.ofSeconds(30),
            Duration.ofSeconds(10),
            ticker,
            leases,
            keeperThread);
  }

  @AfterEach
  void tearDown() {
    keeperThread.shutdownNow();
    coordinator.close();
  }

  private HeldLease hold(long jobId, long token) {
    HeldLease lease = new HeldLease(Jobs.leased(jobId, token), start + 28 * SECOND);
    leases.add(lease);
    return lease;
  }

  private void runOnceAt(long now)
      throws InterruptedException, ExecutionException, TimeoutException {
    keeperThread.submit(() -> keeper.runOnce(now)).get(5, TimeUnit.SECONDS);
  }

  @Test
  void sendsNothingBeforeTheIntervalThenOneHeartbeatForEveryLease() throws Exception {
    HeldLease first = hold(1, 11);
    hold(2, 22);
    first.progress("half way");

    runOnceAt(start + 9 * SECOND);
    runOnceAt(start + 10 * SECOND);

    assertThat(Polling.await(WAIT, () -> !coordinator.service.heartbeats.isEmpty())).isTrue();
    assertThat(coordinator.service.heartbeats).hasSize(1);
    assertThat(coordinator.service.heartbeats.get(0).getLeasesList())
        .extracting(LeaseRef::getJobId, LeaseRef::getFencingToken, LeaseRef::getProgress)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(1L, 11L, "half way"),
            org.assertj.core.groups.Tuple.tuple(2L, 22L, ""));
    assertThat(coordinator.service.heartbeats.get(0).getWorker().getHost())
        .as("the heartbeat says who the worker is")
        .isEqualTo("h");
  }

  @Test
  void eachHeartbeatAsksToBeHeldForOneInterval() throws Exception {
    runOnceAt(start + 10 * SECOND);

    assertThat(Polling.await(WAIT, () -> !coordinator.service.heartbeats.isEmpty())).isTrue();
    assertThat(coordinator.service.heartbeats.get(0).getWait().getSeconds())
        .as("held for one interval")
        .isEqualTo(10);
    assertThat(coordinator.service.heartbeats.get(0).getLeasesList())
        .as("sent with no lease held too")
        .isEmpty();
  }

  @Test
  void aWokenHeartbeatIsFollowedByTheNextOneAtOnceInsteadOfAfterTheInterval() throws Exception {
    coordinator.service.wokenHeartbeats.set(1);
    hold(1, 11);

    runOnceAt(start + 10 * SECOND);

    // No tick needed: the woken answer itself sends the next heartbeat.
    assertThat(Polling.await(WAIT, () -> coordinator.service.heartbeats.size() == 2)).isTrue();
    // That one was not woken: nothing more until an interval after it was sent (at the fake
    // ticker's start).
    runOnceAt(start + 9 * SECOND);
    assertThat(coordinator.service.heartbeats).hasSize(2);
    assertThat(coordinator.service.heartbeats.get(1).getLeasesList())
        .extracting(LeaseRef::getJobId)
        .containsExactly(1L);
  }

  @Test
  void extendedLeaseGetsADeadlineCountedFromTheSendTime() throws Exception {
    HeldLease lease = hold(1, 11);

    runOnceAt(start + 10 * SECOND);

    assertThat(Polling.await(WAIT, () -> lease.deadlineNanos() == start + 40 * SECOND)).isTrue();
    assertThat(lease.isStopped()).isFalse();
  }

  @Test
  void lostAnswerStopsOnlyThatLease() throws Exception {
    coordinator.service.heartbeatPolicy =
        ref ->
            ref.getJobId() == 2 ? LeaseStatus.LEASE_STATUS_LOST : LeaseStatus.LEASE_STATUS_EXTENDED;
    HeldLease kept = hold(1, 11);
    HeldLease lost = hold(2, 22);

    runOnceAt(start + 10 * SECOND);

    assertThat(Polling.await(WAIT, lost::isStopped)).isTrue();
    assertThat(lost.stopReason()).contains(CancellationReason.LEASE_LOST);
    assertThat(Polling.await(WAIT, () -> kept.deadlineNanos() == start + 40 * SECOND)).isTrue();
    assertThat(kept.isStopped()).isFalse();
  }

  @Test
  void lostLeaseIsLeftOutOfLaterHeartbeats() throws Exception {
    HeldLease lost = hold(2, 22);
    lost.stop(CancellationReason.LEASE_LOST);
    hold(1, 11);

    runOnceAt(start + 10 * SECOND);

    assertThat(Polling.await(WAIT, () -> !coordinator.service.heartbeats.isEmpty())).isTrue();
    assertThat(coordinator.service.heartbeats.get(0).getLeasesList())
        .extracting(LeaseRef::getJobId)
        .containsExactly(1L);
  }

  @Test
  void cancelRequestedStopsTheJobAndExtendsTheLeaseForTheRelease() throws Exception {
    coordinator.service.heartbeatPolicy = ref -> LeaseStatus.LEASE_STATUS_CANCEL_REQUESTED;
    HeldLease lease = hold(1, 11);

    runOnceAt(start + 10 * SECOND);

    assertThat(Polling.await(WAIT, lease::isStopped)).isTrue();
    assertThat(lease.stopReason()).contains(CancellationReason.CANCEL_REQUESTED);
    assertThat(lease.deadlineNanos()).isEqualTo(start + 40 * SECOND);
  }

  @Test
  void overdueLeaseIsStoppedAsExpired() throws Exception {
    coordinator.service.heartbeatError = Status.UNAVAILABLE;
    HeldLease lease = hold(1, 11);

    runOnceAt(start + 27 * SECOND);
    assertThat(lease.isStopped()).isFalse();
    runOnceAt(start + 28 * SECOND);

    assertThat(lease.stopReason()).contains(CancellationReason.LEASE_EXPIRED);
  }

  @Test
  void failedHeartbeatIsRetriedWellBeforeTheNextInterval() throws Exception {
    coordinator.service.heartbeatError = Status.UNAVAILABLE;
    hold(1, 11);

    runOnceAt(start + 10 * SECOND);
    assertThat(Polling.await(WAIT, () -> coordinator.service.heartbeats.size() == 1)).isTrue();
    // The failure is handed to the keeper's thread; step until it has been taken into account.
    long retryAt = start + 10 * SECOND + Duration.ofMillis(250).toNanos();
    assertThat(
            Polling.await(
                WAIT,
                () -> {
                  runQuietly(retryAt);
                  return coordinator.service.heartbeats.size() == 2;
                }))
        .isTrue();
  }

  private void runQuietly(long now) {
    try {
      runOnceAt(now);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      throw new AssertionError(e);
    }
  }
}
