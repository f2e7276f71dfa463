package io.antrean.worker.internal;

import io.antrean.channel.CoordinatorChannels;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.WorkCancel;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc.WorkerServiceStub;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lease and CompleteBatch as messages of one Work stream to the coordinator instead of a call each:
 * a message costs both ends much less than a call, most of all in a JVM that has not compiled
 * gRPC's call machinery yet. The stream opens with the first request and again with the first one
 * after it ended. A request still unanswered when its stream ends fails with the stream's status,
 * as a call fails on a broken connection, and one unanswered by its deadline fails with {@code
 * DEADLINE_EXCEEDED} and is withdrawn at the coordinator; callers retry as they retry calls.
 * Against a coordinator without Work ({@code UNIMPLEMENTED}) every request is sent as its unary
 * call, then and from then on; so is a CompleteBatch longer than {@value
 * CoordinatorChannels#MAX_STREAM_REQUEST_BYTES} bytes, always.
 *
 * <p>Thread-safe. Answers are delivered on the transport's thread: the Lease observer's callbacks
 * must not block.
 */
final class WorkStreamClient {
  private static final Logger log = LoggerFactory.getLogger(WorkStreamClient.class);

  private final WorkerServiceStub stub;
  private final ScheduledExecutorService deadlines;
  private final Consumer<List<Job>> unclaimed;
  private final AtomicLong lastId = new AtomicLong();
  private final Object lock = new Object();
  @Nullable private OpenStream current; // guarded by lock
  private boolean closed; // guarded by lock
  private volatile boolean unary;

  /**
   * @param stub the worker service; answers are taken on the transport's thread
   * @param deadlines runs the deadline of each Lease sent on the stream
   * @param unclaimed takes, on the transport's thread, the jobs of an answer to a request already
   *     withdrawn (its deadline passed, or it was cancelled, as the answer crossed the withdrawal
   *     on the wire): leased to this worker, held by nothing in it; must not block
   */
  WorkStreamClient(
      WorkerServiceStub stub, ScheduledExecutorService deadlines, Consumer<List<Job>> unclaimed) {
    this.stub = stub.withExecutor(Runnable::run);
    this.deadlines = deadlines;
    this.unclaimed = unclaimed;
  }

  /**
   * Takes a Lease's answer as from a call: the response and then {@code onCompleted}, or {@code
   * onError}, once. Before that, {@link #started} gets what cancels the request (sent on the
   * stream; {@code beforeStart} when it goes as a call).
   */
  interface LeaseObserver extends ClientResponseObserver<LeaseRequest, LeaseResponse> {
    void started(Runnable cancel);
  }

  /** Sends a Lease; {@code observer} gets its answer. */
  void lease(LeaseRequest request, long timeoutNanos, LeaseObserver observer) {
    PendingWork.Lease pending =
        new PendingWork.Lease(lastId.incrementAndGet(), timeoutNanos, stub, request, observer);
    if (!unary) {
      pending.deadline = deadlines.schedule(pending::expire, timeoutNanos, TimeUnit.NANOSECONDS);
    }
    send(pending);
  }

  /**
   * Sends a CompleteBatch and waits for its answer.
   *
   * @throws StatusRuntimeException as the unary call would throw
   */
  CompleteBatchResponse completeBatch(CompleteBatchRequest request, long timeoutNanos) {
    PendingWork.Batch pending =
        new PendingWork.Batch(lastId.incrementAndGet(), timeoutNanos, stub, request);
    send(pending);
    try {
      return pending.answer.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      CompleteBatchResponse justIn = giveUp(pending, true);
      if (justIn != null) {
        return justIn;
      }
      throw Status.DEADLINE_EXCEEDED
          .withDescription("CompleteBatch unanswered on the Work stream")
          .asRuntimeException();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      giveUp(pending, false);
      throw Status.CANCELLED.withDescription("interrupted").withCause(e).asRuntimeException();
    } catch (ExecutionException e) {
      throw PendingWork.asStatusException(e.getCause());
    }
  }

  /**
   * Withdraws a CompleteBatch given up on. If it could not be withdrawn (answered meanwhile, or
   * sent as a call), its answer is returned when {@code take} and it has come; otherwise the jobs
   * its answer leased, now or when it comes, go to {@code unclaimed}.
   */
  @Nullable
  private CompleteBatchResponse giveUp(PendingWork.Batch pending, boolean take) {
    if (pending.withdraw()) {
      return null;
    }
    CompletableFuture<CompleteBatchResponse> answer = pending.answer;
    if (take && answer.isDone() && !answer.isCompletedExceptionally()) {
      return answer.join();
    }
    answer.thenAccept(
        late -> {
          if (late.getLeasedJobsCount() > 0) {
            unclaimed.accept(late.getLeasedJobsList());
          }
        });
    return null;
  }

  /** Half-closes the stream: the coordinator answers what it is storing and ends it. */
  void close() {
    synchronized (lock) {
      closed = true;
      if (current != null && !current.ended) {
        current.requests.onCompleted();
      }
    }
  }

  /**
   * Waits up to {@code timeout} for the stream {@link #close} half-closed to end. The coordinator
   * ends it once it has answered every request, so by then every answer has arrived, one that
   * crossed a withdrawal included.
   *
   * @return false if it did not end in time
   */
  boolean awaitClosed(Duration timeout) throws InterruptedException {
    OpenStream stream;
    synchronized (lock) {
      // None opens once closed; the current one, until it ends, is the one half-closed.
      stream = closed ? current : null;
    }
    return stream == null || stream.over.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  private void send(PendingWork pending) {
    StatusRuntimeException refused;
    synchronized (lock) {
      if (closed) {
        refused = Status.CANCELLED.withDescription("worker stopping").asRuntimeException();
      } else if (unary || !pending.fitsStream()) {
        refused = null;
      } else {
        OpenStream stream = current;
        if (stream == null || stream.ended) {
          // With a direct transport the stream may end inside its own start.
          stream = new OpenStream();
          if (!stream.ended) {
            current = stream;
          }
        }
        if (!stream.ended) {
          pending.stream = stream;
          stream.pending.put(pending.id, pending);
          stream.requests.onNext(pending.message());
          return;
        }
        refused = unary ? null : stream.endError;
      }
    }
    if (refused == null) {
      pending.sendUnary();
    } else {
      pending.fail(refused);
    }
  }

  /** One Work stream; ended once the coordinator ended it or it broke. */
  private final class OpenStream implements StreamObserver<WorkResponse>, PendingWork.Stream {
    final Map<Long, PendingWork> pending = new ConcurrentHashMap<>();
    final StreamObserver<WorkRequest> requests;
    boolean ended; // guarded by lock
    final CountDownLatch over = new CountDownLatch(1);
    StatusRuntimeException endError; // guarded by lock, set once ended

    OpenStream() {
      this.requests = stub.work(this);
    }

    @Override
    public void onNext(WorkResponse response) {
      PendingWork answered = pending.remove(response.getRequestId());
      if (answered != null) {
        answered.answer(response);
        return;
      }
      // Ids are never reused: this answers a request withdrawn before its answer came.
      List<Job> jobs =
          switch (response.getAnswerCase()) {
            case LEASE -> response.getLease().getJobsList();
            case COMPLETE_BATCH -> response.getCompleteBatch().getLeasedJobsList();
            default -> List.of();
          };
      if (!jobs.isEmpty()) {
        unclaimed.accept(jobs);
      }
    }

    @Override
    public void onError(Throwable t) {
      ended(PendingWork.asStatusException(t));
    }

    @Override
    public void onCompleted() {
      ended(
          Status.UNAVAILABLE
              .withDescription("the coordinator ended the Work stream")
              .asRuntimeException());
    }

    private void ended(StatusRuntimeException error) {
      try {
        failOrResend(error);
      } finally {
        over.countDown();
      }
    }

    private void failOrResend(StatusRuntimeException error) {
      Status status = error.getStatus();
      synchronized (lock) {
        ended = true;
        endError = error;
        if (current == this) {
          current = null;
        }
        if (status.getCode() == Status.Code.UNIMPLEMENTED && !unary) {
          log.info("the coordinator has no Work stream; sending Lease and CompleteBatch calls");
          unary = true;
        }
      }
      for (Long id : pending.keySet()) {
        PendingWork left = pending.remove(id);
        if (left == null) {
          continue;
        }
        if (unary) {
          left.sendUnary();
        } else {
          left.fail(error);
        }
      }
    }

    /**
     * Withdraws a request still unanswered at the coordinator; on a half-closed stream there is
     * nothing to send, and an answer that still comes has its jobs handed back as unclaimed.
     */
    @Override
    public boolean takeBack(PendingWork request) {
      return pending.remove(request.id, request);
    }

    @Override
    public void cancel(long id) {
      synchronized (lock) {
        if (!ended && !closed) {
          requests.onNext(
              WorkRequest.newBuilder()
                  .setRequestId(id)
                  .setCancel(WorkCancel.getDefaultInstance())
                  .build());
        }
      }
    }
  }
}
