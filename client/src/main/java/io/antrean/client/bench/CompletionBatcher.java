package io.antrean.client.bench;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteOutcome;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteResponse;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;
import javax.annotation.concurrent.GuardedBy;

/**
 * Reports one worker's finished jobs to the coordinator, batching them naturally: a job joins a
 * pending list; when no CompleteBatch of this worker is in flight, one is sent at once with
 * everything pending (up to {@link #MAX_BATCH_ITEMS}), and its answer sends the next with whatever
 * piled up meanwhile. No timer, so an idle worker's job is reported without delay and a busy one
 * makes one call per round trip. Each answer is judged per item; anything but COMPLETED is a
 * failure.
 *
 * <p>A coordinator without CompleteBatch answers UNIMPLEMENTED: then this batcher, and every one
 * sharing its flag, reports each job with a unary Complete for the rest of the run, the refused
 * batch's jobs included, so every job is reported exactly once either way.
 *
 * <p>Thread-safe: jobs are added from the worker's thread, answers arrive on the transport's.
 */
final class CompletionBatcher {
  /** The most items one CompleteBatch may carry: the protocol's limit. */
  static final int MAX_BATCH_ITEMS = 1_000;

  /** What the batcher tells its worker; called on the transport's thread, so must be quick. */
  interface Acknowledgements {
    /**
     * The coordinator answered for {@code jobs} jobs, {@code completed} of which it completed;
     * their slots are free again. Called once per answered call, failed ones included.
     */
    void answered(int jobs, int completed);

    /**
     * A call failed, or the coordinator refused an item.
     *
     * @param what the call and job, for the message
     * @param cause the call's failure, or {@code null} when the answer itself refused a job
     */
    void failed(String what, @Nullable Throwable cause);

    /** This batcher was the first of those sharing its flag to find CompleteBatch missing. */
    void fellBackToUnary();
  }

  private final String workerId;
  private final WorkerServiceGrpc.WorkerServiceStub stub;
  private final Duration callTimeout;
  private final Acknowledgements acknowledgements;
  private final AtomicBoolean batchUnimplemented;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private List<CompleteItem> pending = new ArrayList<>();

  @GuardedBy("lock")
  private boolean batchInFlight;

  /**
   * @param stub the worker's asynchronous stub; answers are handled on its executor
   * @param batchUnimplemented set once any batcher sharing it got UNIMPLEMENTED; those batchers use
   *     unary Completes from then on
   */
  CompletionBatcher(
      String workerId,
      WorkerServiceGrpc.WorkerServiceStub stub,
      Duration callTimeout,
      AtomicBoolean batchUnimplemented,
      Acknowledgements acknowledgements) {
    this.workerId = workerId;
    this.stub = stub;
    this.callTimeout = callTimeout;
    this.batchUnimplemented = batchUnimplemented;
    this.acknowledgements = acknowledgements;
  }

  /** Reports these finished jobs: in the batch about to go, or in the next one. */
  void addAll(List<Job> jobs) {
    if (jobs.isEmpty()) {
      return;
    }
    List<CompleteItem> items = new ArrayList<>(jobs.size());
    for (Job job : jobs) {
      items.add(
          CompleteItem.newBuilder()
              .setJobId(job.getId())
              .setFencingToken(job.getLease().getFencingToken())
              .build());
    }
    if (batchUnimplemented.get()) {
      items.forEach(this::completeOne);
      return;
    }
    List<CompleteItem> batch;
    synchronized (lock) {
      pending.addAll(items);
      if (batchInFlight) {
        return;
      }
      batchInFlight = true;
      batch = takeBatch();
    }
    send(batch);
  }

  @GuardedBy("lock")
  private List<CompleteItem> takeBatch() {
    if (pending.size() <= MAX_BATCH_ITEMS) {
      List<CompleteItem> batch = pending;
      pending = new ArrayList<>();
      return batch;
    }
    List<CompleteItem> head = pending.subList(0, MAX_BATCH_ITEMS);
    List<CompleteItem> batch = new ArrayList<>(head);
    head.clear();
    return batch;
  }

  private void send(List<CompleteItem> batch) {
    CompleteBatchRequest request =
        CompleteBatchRequest.newBuilder().setWorkerId(workerId).addAllItems(batch).build();
    stub.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS)
        .completeBatch(request, new BatchAnswer(batch));
  }

  /** After an answer: sends what piled up, or (after a fallback) hands it to unary Completes. */
  private void sendNext() {
    List<CompleteItem> next;
    boolean unary = batchUnimplemented.get();
    synchronized (lock) {
      if (pending.isEmpty()) {
        batchInFlight = false;
        return;
      }
      if (unary) {
        batchInFlight = false;
        next = pending;
        pending = new ArrayList<>();
      } else {
        next = takeBatch();
      }
    }
    if (unary) {
      next.forEach(this::completeOne);
    } else {
      send(next);
    }
  }

  private void fallBack(List<CompleteItem> refused) {
    if (batchUnimplemented.compareAndSet(false, true)) {
      acknowledgements.fellBackToUnary();
    }
    refused.forEach(this::completeOne);
    sendNext();
  }

  /** How many items of {@code batch} {@code response} completed; reports the first refusal. */
  private int judge(List<CompleteItem> batch, CompleteBatchResponse response) {
    if (response.getOutcomesCount() != batch.size()) {
      acknowledgements.failed(
          workerId
              + ": CompleteBatch answered "
              + response.getOutcomesCount()
              + " outcomes for "
              + batch.size()
              + " jobs",
          null);
    }
    int completed = 0;
    boolean refusedOne = false;
    for (int i = 0; i < Math.min(batch.size(), response.getOutcomesCount()); i++) {
      CompleteOutcome outcome = response.getOutcomes(i);
      long jobId = batch.get(i).getJobId();
      if (outcome.getJobId() == jobId
          && outcome.getStatus() == CompleteStatus.COMPLETE_STATUS_COMPLETED) {
        completed++;
      } else if (!refusedOne) {
        refusedOne = true;
        acknowledgements.failed(workerId + ": CompleteBatch " + describe(outcome, jobId), null);
      }
    }
    return completed;
  }

  private static String describe(CompleteOutcome outcome, long jobId) {
    String status = outcome.getStatus().name().replace("COMPLETE_STATUS_", "");
    if (outcome.getJobId() != jobId) {
      return "answered job "
          + outcome.getJobId()
          + " ("
          + status
          + ") in the place of job "
          + jobId;
    }
    return "answered " + status + " for job " + jobId;
  }

  private void completeOne(CompleteItem item) {
    CompleteRequest request =
        CompleteRequest.newBuilder()
            .setJobId(item.getJobId())
            .setFencingToken(item.getFencingToken())
            .setWorkerId(workerId)
            .build();
    stub.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS)
        .complete(
            request,
            new StreamObserver<CompleteResponse>() {
              @Override
              public void onNext(CompleteResponse response) {}

              @Override
              public void onError(Throwable t) {
                acknowledgements.answered(1, 0);
                acknowledgements.failed(
                    workerId + ": Complete of job " + item.getJobId() + " failed", t);
              }

              @Override
              public void onCompleted() {
                acknowledgements.answered(1, 1);
              }
            });
  }

  /** The answer to one CompleteBatch. */
  private final class BatchAnswer implements StreamObserver<CompleteBatchResponse> {
    private final List<CompleteItem> batch;
    @Nullable private CompleteBatchResponse response;

    BatchAnswer(List<CompleteItem> batch) {
      this.batch = batch;
    }

    @Override
    public void onNext(CompleteBatchResponse value) {
      response = value;
    }

    @Override
    public void onError(Throwable t) {
      if (Status.fromThrowable(t).getCode() == Status.Code.UNIMPLEMENTED) {
        fallBack(batch);
        return;
      }
      acknowledgements.answered(batch.size(), 0);
      acknowledgements.failed(workerId + ": CompleteBatch of " + batch.size() + " jobs failed", t);
      sendNext();
    }

    @Override
    public void onCompleted() {
      int completed =
          judge(batch, response == null ? CompleteBatchResponse.getDefaultInstance() : response);
      acknowledgements.answered(batch.size(), completed);
      sendNext();
    }
  }
}
