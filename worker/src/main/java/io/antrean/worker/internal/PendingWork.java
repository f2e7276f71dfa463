package io.antrean.worker.internal;

import io.antrean.channel.CoordinatorChannels;
import io.antrean.proto.RequestErrors;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc.WorkerServiceStub;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;

/**
 * A request of {@link WorkStreamClient} sent and not yet answered: a Lease ({@link Lease}) or a
 * CompleteBatch ({@link Batch}), on the Work stream or, against a coordinator without it, as its
 * unary call. Thread-safe: the sender, the transport's thread and a deadline may race; whoever
 * takes the request off its stream ({@link Stream#takeBack}) answers it.
 */
abstract class PendingWork {
  /** The Work stream a request went out on. */
  interface Stream {
    /** Takes {@code request} off this stream's unanswered requests; false if it was not there. */
    boolean takeBack(PendingWork request);

    /** Withdraws the request with {@code id} at the coordinator. */
    void cancel(long id);
  }

  final long id;
  final long timeoutNanos;
  final WorkerServiceStub stub;
  @Nullable volatile Stream stream;

  PendingWork(long id, long timeoutNanos, WorkerServiceStub stub) {
    this.id = id;
    this.timeoutNanos = timeoutNanos;
    this.stub = stub;
  }

  abstract WorkRequest message();

  abstract void answer(WorkResponse response);

  abstract void fail(StatusRuntimeException failure);

  /** Sends the request as its unary call, with its deadline from now; never blocks. */
  abstract void sendUnary();

  /**
   * Whether the request is short enough to go on the stream ({@link
   * CoordinatorChannels#MAX_STREAM_REQUEST_BYTES}).
   */
  boolean fitsStream() {
    return true;
  }

  /** Takes the request back if it is still unanswered; true if it was. */
  boolean withdraw() {
    Stream sentOn = stream;
    if (sentOn == null || !sentOn.takeBack(this)) {
      return false;
    }
    sentOn.cancel(id);
    return true;
  }

  /** The error answered, as the unary call would have thrown it, details included. */
  static StatusRuntimeException error(WorkResponse response) {
    return RequestErrors.toException(response.getError());
  }

  /** The error as a call would throw it, with its details (the trailers) kept. */
  static StatusRuntimeException asStatusException(Throwable t) {
    if (t instanceof StatusRuntimeException e) {
      return e;
    }
    return Status.fromThrowable(t).asRuntimeException(Status.trailersFromThrowable(t));
  }

  /** A Lease, answered to its observer as a call's would be. */
  static final class Lease extends PendingWork {
    private final LeaseRequest request;
    private final WorkStreamClient.LeaseObserver observer;
    @Nullable volatile ScheduledFuture<?> deadline;

    Lease(
        long id,
        long timeoutNanos,
        WorkerServiceStub stub,
        LeaseRequest request,
        WorkStreamClient.LeaseObserver o) {
      super(id, timeoutNanos, stub);
      this.request = request;
      this.observer = o;
      o.started(
          () -> {
            if (withdraw()) {
              fail(Status.CANCELLED.withDescription("worker stopping").asRuntimeException());
            }
          });
    }

    @Override
    WorkRequest message() {
      return WorkRequest.newBuilder().setRequestId(id).setLease(request).build();
    }

    @Override
    void answer(WorkResponse response) {
      stopDeadline();
      if (response.hasLease()) {
        observer.onNext(response.getLease());
        observer.onCompleted();
      } else {
        observer.onError(error(response));
      }
    }

    @Override
    void fail(StatusRuntimeException failure) {
      stopDeadline();
      observer.onError(failure);
    }

    @Override
    void sendUnary() {
      stopDeadline();
      stub.withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS).lease(request, observer);
    }

    void expire() {
      if (withdraw()) {
        observer.onError(
            Status.DEADLINE_EXCEEDED
                .withDescription("Lease unanswered on the Work stream")
                .asRuntimeException());
      }
    }

    private void stopDeadline() {
      ScheduledFuture<?> d = deadline;
      if (d != null) {
        d.cancel(false);
      }
    }
  }

  /** A CompleteBatch, answered to {@link #answer}. */
  static final class Batch extends PendingWork {
    private final CompleteBatchRequest request;
    final CompletableFuture<CompleteBatchResponse> answer = new CompletableFuture<>();

    Batch(long id, long timeoutNanos, WorkerServiceStub stub, CompleteBatchRequest request) {
      super(id, timeoutNanos, stub);
      this.request = request;
    }

    @Override
    WorkRequest message() {
      return WorkRequest.newBuilder().setRequestId(id).setCompleteBatch(request).build();
    }

    @Override
    boolean fitsStream() {
      return request.getSerializedSize() <= CoordinatorChannels.MAX_STREAM_REQUEST_BYTES;
    }

    @Override
    void answer(WorkResponse response) {
      if (response.hasCompleteBatch()) {
        answer.complete(response.getCompleteBatch());
      } else {
        answer.completeExceptionally(error(response));
      }
    }

    @Override
    void fail(StatusRuntimeException failure) {
      answer.completeExceptionally(failure);
    }

    @Override
    void sendUnary() {
      stub.withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS)
          .completeBatch(
              request,
              new StreamObserver<>() {
                @Override
                public void onNext(CompleteBatchResponse response) {
                  answer.complete(response);
                }

                @Override
                public void onError(Throwable t) {
                  answer.completeExceptionally(asStatusException(t));
                }

                @Override
                public void onCompleted() {}
              });
    }
  }
}
