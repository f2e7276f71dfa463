package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.worker.CancellationReason;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class HeldLeaseTest {

  @Test
  void deadlineIsMeasuredOnTheTicker() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);

    assertThat(lease.isOverdue(999)).isFalse();
    assertThat(lease.remainingNanos(400)).isEqualTo(600);
    assertThat(lease.isOverdue(1_000)).isTrue();
    lease.extendTo(5_000);
    assertThat(lease.isOverdue(1_000)).isFalse();
  }

  @Test
  void lostLeaseIsNotExtendedAnyMore() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);
    lease.stop(CancellationReason.LEASE_LOST);

    lease.extendTo(5_000);

    assertThat(lease.deadlineNanos()).isEqualTo(1_000);
    assertThat(lease.isGone()).isTrue();
  }

  @Test
  void firstStopWinsAndRunsCallbacksOnce() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);
    AtomicInteger calls = new AtomicInteger();
    lease.onStop(calls::incrementAndGet);

    assertThat(lease.stop(CancellationReason.CANCEL_REQUESTED)).isTrue();
    assertThat(lease.stop(CancellationReason.LEASE_LOST)).isFalse();

    assertThat(lease.stopReason()).contains(CancellationReason.CANCEL_REQUESTED);
    assertThat(lease.isGone()).isFalse();
    assertThat(calls).hasValue(1);
  }

  @Test
  void callbackRegisteredAfterTheStopRunsAtOnce() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);
    lease.stop(CancellationReason.SHUTDOWN);
    AtomicInteger calls = new AtomicInteger();

    lease.onStop(calls::incrementAndGet);

    assertThat(calls).hasValue(1);
  }

  @Test
  void failingCallbackDoesNotStopTheOthers() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);
    AtomicInteger calls = new AtomicInteger();
    lease.onStop(
        () -> {
          throw new IllegalStateException("boom");
        });
    lease.onStop(calls::incrementAndGet);

    lease.stop(CancellationReason.SHUTDOWN);

    assertThat(calls).hasValue(1);
  }

  @Test
  void stopInterruptsTheRunningHandler() throws Exception {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);
    CountDownLatch begun = new CountDownLatch(1);
    CompletableFuture<CancellationReason> handler =
        CompletableFuture.supplyAsync(
            () -> {
              lease.beginHandler(Thread.currentThread());
              begun.countDown();
              try {
                new CountDownLatch(1).await();
              } catch (InterruptedException e) {
                // The stop under test; endHandler() below clears the flag.
              }
              return lease.endHandler();
            });
    assertThat(begun.await(5, TimeUnit.SECONDS)).isTrue();

    lease.stop(CancellationReason.LEASE_LOST);

    assertThat(handler.get(5, TimeUnit.SECONDS)).isEqualTo(CancellationReason.LEASE_LOST);
  }

  @Test
  void stopAfterTheHandlerEndedDoesNotInterruptTheThread() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);
    assertThat(lease.beginHandler(Thread.currentThread())).isTrue();
    assertThat(lease.endHandler()).isNull();

    lease.stop(CancellationReason.LEASE_LOST);

    assertThat(Thread.interrupted()).isFalse();
  }

  @Test
  void handlerDoesNotBeginWhenAlreadyStoppedAndTheInterruptIsCleared() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);
    lease.stop(CancellationReason.SHUTDOWN);

    assertThat(lease.beginHandler(Thread.currentThread())).isFalse();
    Thread.currentThread().interrupt();
    assertThat(lease.endHandler()).isEqualTo(CancellationReason.SHUTDOWN);
    assertThat(Thread.interrupted()).isFalse();
  }

  @Test
  void outcomeIsClaimedOnce() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 10), 1_000);

    assertThat(lease.claimOutcome()).isTrue();
    assertThat(lease.claimOutcome()).isFalse();
  }
}
