package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.antrean.worker.testing.FakeTicker;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The poll loop's hand-off of leased jobs, and the slot accounting of one Lease call. */
@Timeout(20)
class LeasePollerTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final FakeTicker ticker = new FakeTicker();
  private final SlotPool slots = new SlotPool(4);
  private final List<Job> dispatched = new CopyOnWriteArrayList<>();
  private final List<Thread> dispatchThreads = new CopyOnWriteArrayList<>();
  private final AtomicReference<Thread> loopThread = new AtomicReference<>();
  private InProcessCoordinator coordinator;
  private LeasePoller poller;

  @BeforeEach
  void setUp() throws IOException {
    coordinator = new InProcessCoordinator();
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    if (poller != null) {
      poller.stop();
      assertThat(poller.join(WAIT)).isTrue();
    }
    coordinator.close();
  }

  private void startPoller() {
    poller =
        new LeasePoller(
            WorkerServiceGrpc.newStub(coordinator.channel),
            LeaseRequest.newBuilder()
                .setWorkerId("w-1")
                .addTypes("t")
                .setWait(ProtoDurations.of(Duration.ofSeconds(1)))
                .build(),
            slots,
            (job, receivedNanos) -> {
              dispatchThreads.add(Thread.currentThread());
              dispatched.add(job);
            },
            ticker,
            new Backoff(Duration.ofMillis(20), Duration.ofMillis(100)),
            task -> {
              Thread thread = new Thread(task, "test-poll-loop");
              loopThread.set(thread);
              return thread;
            });
    poller.start();
  }

  @Test
  void leasedJobsAreDispatchedByTheThreadThatReadTheAnswerNotByThePollLoop() {
    coordinator.service.enqueue("t", "{}");
    coordinator.service.enqueue("t", "{}");
    startPoller();

    assertThat(Polling.await(WAIT, () -> dispatched.size() == 2)).isTrue();
    assertThat(dispatchThreads).doesNotContain(loopThread.get());
    // Two slots are held by the two jobs; the loop asks for the rest.
    assertThat(Polling.await(WAIT, () -> lastLease().getMaxJobs() == 2)).isTrue();
  }

  @Test
  void anAnswerKeepsTheSlotsOfItsJobsAndGivesBackTheRest() throws InterruptedException {
    LeaseCall call = new LeaseCall(slots.acquireUpTo(3), slots, this::record, ticker);

    call.onNext(answer(Jobs.leased(1, 11)));
    call.onCompleted();
    call.releaseSlotsUnlessAnswered();

    assertThat(dispatched).extracting(Job::getId).containsExactly(1L);
    assertThat(call.jobsReceived()).isEqualTo(1);
    assertThat(slots.free()).isEqualTo(3);
  }

  @Test
  void anAnswerArrivingAfterTheLoopGaveUpIsDroppedWithoutFreeingSlotsTwice()
      throws InterruptedException {
    LeaseCall call = new LeaseCall(slots.acquireUpTo(3), slots, this::record, ticker);

    call.releaseSlotsUnlessAnswered();
    call.onNext(answer(Jobs.leased(1, 11), Jobs.leased(2, 22)));

    assertThat(dispatched).isEmpty();
    assertThat(slots.free()).isEqualTo(4);
  }

  @Test
  void jobsBeyondTheSlotsHeldAreNotDispatched() throws InterruptedException {
    LeaseCall call = new LeaseCall(slots.acquireUpTo(1), slots, this::record, ticker);

    call.onNext(answer(Jobs.leased(1, 11), Jobs.leased(2, 22)));
    call.onCompleted();

    assertThat(dispatched).extracting(Job::getId).containsExactly(1L);
    assertThat(slots.free()).isEqualTo(3);
  }

  private void record(Job job, long receivedNanos) {
    dispatched.add(job);
  }

  private LeaseRequest lastLease() {
    List<LeaseRequest> leases = coordinator.service.leases;
    return leases.get(leases.size() - 1);
  }

  private static LeaseResponse answer(Job... jobs) {
    return LeaseResponse.newBuilder().addAllJobs(List.of(jobs)).build();
  }
}
