package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc.WorkerServiceBlockingStub;
import io.antrean.worker.CancellationReason;
import io.antrean.worker.testing.FakeTicker;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.LongStream;
import javax.annotation.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The completion queue against an in-process coordinator whose CompleteBatch the test can hold in
 * flight: completions reported meanwhile are pending for certain, which makes batch contents exact.
 */
@Timeout(20)
class CompletionQueueTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int CAPACITY = 2000;

  private final FakeTicker ticker = new FakeTicker();
  private final LeaseTable leases = new LeaseTable();
  private final SlotPool slots = new SlotPool(CAPACITY);
  private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
  private final CountDownLatch gate = new CountDownLatch(1);
  private InProcessCoordinator coordinator;
  private OutcomeReporter reporter;
  private CompletionQueue queue;

  @BeforeEach
  void setUp() throws IOException {
    coordinator = new InProcessCoordinator();
    WorkerServiceBlockingStub stub = WorkerServiceGrpc.newBlockingStub(coordinator.channel);
    Duration rpcTimeout = Duration.ofSeconds(5);
    reporter = new OutcomeReporter(stub, "w-1", ticker, rpcTimeout);
    queue = startQueue(null, CompletionQueue.LINGER);
  }

  private CompletionQueue startQueue(@Nullable SlotRefill refill, Duration linger) {
    WorkStreamClient work =
        new WorkStreamClient(WorkerServiceGrpc.newStub(coordinator.channel), deadlines, jobs -> {});
    CompletionQueue started =
        new CompletionQueue(
            new CompleteBatchSender(work, "w-1", ticker, Duration.ofSeconds(5), reporter),
            reporter,
            new JobSettler(leases, slots),
            refill,
            new Prefetch(0, slots),
            linger);
    started.start();
    return started;
  }

  @AfterEach
  void tearDown() {
    deadlines.shutdownNow();
    gate.countDown();
    queue.stop();
    reporter.abandon();
    coordinator.close();
  }

  /** The jobs the refill handed to handlers, in order. */
  private final List<HeldLease> dispatched = new CopyOnWriteArrayList<>();

  /**
   * Replaces the queue with one that refills freed slots from each answer, handing the jobs to
   * {@link #dispatched}, and waits up to {@code linger} for them.
   */
  private void lingerWithRefill(Duration linger) {
    queue.stop();
    SlotRefill refill =
        new SlotRefill(
            LeaseRequest.newBuilder().setWorkerId("w-1").setMaxJobs(10).build(),
            () -> true,
            (job, receivedNanos) -> {
              HeldLease lease =
                  new HeldLease(job, ticker.nanos() + Duration.ofSeconds(30).toNanos());
              leases.add(lease);
              dispatched.add(lease);
            },
            slots);
    queue = startQueue(refill, linger);
  }

  /**
   * Sends job 101 alone and holds its CompleteBatch, reports 102 and 103 meanwhile, then lets the
   * answer bring the one job the coordinator has; returns that job's id once it is dispatched.
   */
  private long answerBringsOneJob() {
    coordinator.service.completeBatchGate = gate;
    complete(101);
    assertThat(awaitBatches(1)).isTrue();
    long brought = coordinator.service.enqueue("t", "{}");
    complete(102);
    complete(103);
    gate.countDown();
    assertThat(Polling.await(WAIT, () -> dispatched.size() == 1)).isTrue();
    return brought;
  }

  private HeldLease hold(long jobId, long token) {
    HeldLease lease =
        new HeldLease(Jobs.leased(jobId, token), ticker.nanos() + Duration.ofSeconds(30).toNanos());
    leases.add(lease);
    try {
      assertThat(slots.acquireUpTo(1)).isEqualTo(1);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return lease;
  }

  private void complete(HeldLease lease) {
    queue.complete(
        lease, ("result " + lease.jobId()).getBytes(StandardCharsets.UTF_8), "text/plain");
  }

  private HeldLease complete(long jobId) {
    HeldLease lease = hold(jobId, 1000 + jobId);
    complete(lease);
    return lease;
  }

  /** Completes job 1 and waits until its CompleteBatch is held at the coordinator. */
  private void holdFirstBatchInFlight() {
    coordinator.service.completeBatchGate = gate;
    complete(1);
    assertThat(awaitBatches(1)).isTrue();
  }

  private boolean awaitBatches(int count) {
    return Polling.await(WAIT, () -> coordinator.service.completeBatches.size() >= count);
  }

  private boolean awaitAllSettled() {
    return Polling.await(WAIT, () -> leases.isEmpty() && slots.free() == CAPACITY);
  }

  private List<List<Long>> batchJobIds() {
    return coordinator.service.completeBatches.stream()
        .map(batch -> batch.getItemsList().stream().map(CompleteItem::getJobId).toList())
        .toList();
  }

  @Test
  void aLoneCompletionIsSentAtOnceInABatchOfItsOwnAndSettledWhenAnswered() {
    complete(7);

    assertThat(awaitAllSettled()).isTrue();
    assertThat(coordinator.service.completeBatches).hasSize(1);
    CompleteBatchRequest batch = coordinator.service.completeBatches.get(0);
    assertThat(batch.getWorkerId()).isEqualTo("w-1");
    assertThat(batch.getItemsList())
        .extracting(
            CompleteItem::getJobId,
            CompleteItem::getFencingToken,
            item -> item.getResult().toStringUtf8(),
            CompleteItem::getResultContentType)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(7L, 1007L, "result 7", "text/plain"));
    assertThat(coordinator.service.unaryCompletes).isEmpty();
  }

  @Test
  void completionsReportedWhileABatchIsInFlightGoTogetherInTheNextOne() {
    holdFirstBatchInFlight();
    complete(2);
    complete(3);
    complete(4);

    assertThat(queue.pending()).isEqualTo(3);
    assertThat(leases.size()).as("nothing is settled before its answer").isEqualTo(4);
    assertThat(slots.free()).isEqualTo(CAPACITY - 4);
    gate.countDown();

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds()).containsExactly(List.of(1L), List.of(2L, 3L, 4L));
    assertThat(coordinator.service.invalidCompleteBatches).hasValue(0);
  }

  @Test
  void aBatchCarriesAtMostAThousandJobs() {
    holdFirstBatchInFlight();
    LongStream.rangeClosed(2, 1002).forEach(this::complete);
    gate.countDown();

    assertThat(awaitAllSettled()).isTrue();
    assertThat(coordinator.service.completeBatches)
        .extracting(CompleteBatchRequest::getItemsCount)
        .containsExactly(1, 1000, 1);
    assertThat(coordinator.service.invalidCompleteBatches).hasValue(0);
  }

  @Test
  void aLaterLeaseOfAJobWaitsForTheNextBatchSoNoRequestCarriesAJobTwice() {
    holdFirstBatchInFlight();
    complete(hold(9, 91));
    complete(hold(9, 92));
    complete(5);
    gate.countDown();

    assertThat(awaitAllSettled()).isTrue();
    assertThat(coordinator.service.completeBatches)
        .extracting(
            batch -> batch.getItemsList().stream().map(CompleteItem::getFencingToken).toList())
        .containsExactly(List.of(1001L), List.of(91L, 1005L), List.of(92L));
    assertThat(coordinator.service.invalidCompleteBatches).hasValue(0);
  }

  @Test
  void leaseLostAndNotFoundItemsAreSettledWithoutRetryWhileTheOthersComplete() {
    coordinator.service.completePolicy =
        jobId ->
            switch ((int) jobId) {
              case 2 -> CompleteStatus.COMPLETE_STATUS_LEASE_LOST;
              case 3 -> CompleteStatus.COMPLETE_STATUS_NOT_FOUND;
              default -> CompleteStatus.COMPLETE_STATUS_COMPLETED;
            };
    holdFirstBatchInFlight();
    complete(2);
    complete(3);
    complete(4);
    gate.countDown();

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds()).containsExactly(List.of(1L), List.of(2L, 3L, 4L));
    assertThat(coordinator.service.unaryCompletes).isEmpty();
  }

  @Test
  void unavailableResendsTheSameItemsAndNothingMore() {
    coordinator.service.completeFailures.set(1);
    holdFirstBatchInFlight();
    complete(2);
    gate.countDown();

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds()).containsExactly(List.of(1L), List.of(1L), List.of(2L));
  }

  @Test
  void anItemWhoseLeaseWasLostWhileItWaitedIsNotSent() {
    holdFirstBatchInFlight();
    HeldLease lost = complete(2);
    complete(3);
    lost.stop(CancellationReason.LEASE_LOST);
    gate.countDown();

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds()).containsExactly(List.of(1L), List.of(3L));
  }

  @Test
  void unimplementedFallsBackToUnaryCompleteForTheRestOfTheQueuesLife() {
    coordinator.service.completeBatchImplemented = false;
    complete(1);

    assertThat(awaitAllSettled()).isTrue();
    assertThat(coordinator.service.unaryCompletes)
        .extracting(CompleteRequest::getJobId, CompleteRequest::getWorkerId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "w-1"));
    HeldLease second = hold(2, 1002);
    complete(second);

    // With unary Complete the reporting thread waits for the answer, as before CompleteBatch.
    assertThat(leases.size()).isZero();
    assertThat(coordinator.service.unaryCompletes)
        .extracting(CompleteRequest::getJobId, CompleteRequest::getFencingToken)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, 1001L),
            org.assertj.core.groups.Tuple.tuple(2L, 1002L));
    assertThat(coordinator.service.completeBatches).hasSize(1);
  }

  @Test
  void stopCancelsTheBatchInFlightAndSettlesWhatWasNotSent() {
    holdFirstBatchInFlight();
    complete(2);

    queue.stop();

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds()).containsExactly(List.of(1L));
    assertThat(coordinator.service.unaryCompletes).isEmpty();
  }

  @Test
  void aCompletionAfterStopGoesByUnaryComplete() {
    queue.stop();

    complete(4);

    assertThat(leases.size()).isZero();
    assertThat(slots.free()).isEqualTo(CAPACITY);
    assertThat(coordinator.service.unaryCompletes)
        .extracting(CompleteRequest::getJobId)
        .containsExactly(4L);
    assertThat(coordinator.service.completeBatches).isEmpty();
  }

  @Test
  void theJobsOfOneAnswerWaitForEachOtherAndGoBackInOneBatch() {
    lingerWithRefill(Duration.ofHours(1));
    long brought = answerBringsOneJob();
    // Completions 102 and 103 are pending, the answer's job is not done: the sender waits for it.
    assertThat(Polling.await(WAIT, queue::lingering)).isTrue();

    complete(dispatched.get(0));

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds()).containsExactly(List.of(101L), List.of(102L, 103L, brought));
  }

  @Test
  void aBatchWaitsForNoJobThatCameOtherwise() {
    lingerWithRefill(Duration.ofHours(1));
    complete(7);

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds()).containsExactly(List.of(7L));
  }

  @Test
  void aJobOfTheAnswerThatDoesNotFinishHoldsUpOneBatchAtMost() {
    lingerWithRefill(Duration.ofMillis(50));
    long brought = answerBringsOneJob();
    assertThat(awaitBatches(2)).isTrue();
    complete(104);
    assertThat(awaitBatches(3)).isTrue();

    complete(dispatched.get(0));

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds())
        .containsExactly(List.of(101L), List.of(102L, 103L), List.of(104L), List.of(brought));
  }

  @Test
  void aFullBatchGoesWithoutWaitingForTheAnswersJobs() {
    lingerWithRefill(Duration.ofHours(1));
    answerBringsOneJob();
    assertThat(Polling.await(WAIT, queue::lingering)).isTrue();
    LongStream.rangeClosed(1000, 1997).forEach(this::complete);

    assertThat(awaitBatches(2)).isTrue();
    complete(dispatched.get(0));

    assertThat(awaitAllSettled()).isTrue();
    assertThat(coordinator.service.completeBatches)
        .extracting(CompleteBatchRequest::getItemsCount)
        .containsExactly(1, 1000, 1);
  }

  @Test
  void stopEndsTheWaitAndSettlesWhatWasNotSent() {
    lingerWithRefill(Duration.ofHours(1));
    answerBringsOneJob();
    assertThat(Polling.await(WAIT, queue::lingering)).isTrue();

    queue.stop();
    complete(dispatched.get(0));

    assertThat(awaitAllSettled()).isTrue();
    assertThat(batchJobIds()).containsExactly(List.of(101L));
  }
}
