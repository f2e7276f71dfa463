package io.antrean.worker.testing;

import io.antrean.proto.RequestErrors;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;

/**
 * A Work stream served as the coordinator serves it: each lease and complete_batch answered by the
 * service's own unary method, under its request id, errors with their details. Each request runs on
 * a thread of its own, as a call would, so a request the service holds does not hold the others.
 */
final class WorkOverCalls implements StreamObserver<WorkRequest> {
  private static final ExecutorService CALLS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "fake-work-request");
            thread.setDaemon(true);
            return thread;
          });

  private final WorkerServiceGrpc.WorkerServiceImplBase service;
  private final StreamObserver<WorkResponse> answers;

  WorkOverCalls(
      WorkerServiceGrpc.WorkerServiceImplBase service, StreamObserver<WorkResponse> answers) {
    this.service = service;
    this.answers = answers;
  }

  @Override
  public void onNext(WorkRequest request) {
    long id = request.getRequestId();
    switch (request.getCallCase()) {
      case LEASE ->
          CALLS.execute(
              () ->
                  service.lease(request.getLease(), answerTo(id, WorkResponse.Builder::setLease)));
      case COMPLETE_BATCH ->
          CALLS.execute(
              () ->
                  service.completeBatch(
                      request.getCompleteBatch(),
                      answerTo(id, WorkResponse.Builder::setCompleteBatch)));
      default -> {
        // A cancel: the answer of a withdrawn request is dropped by the worker.
      }
    }
  }

  private <A> StreamObserver<A> answerTo(long id, BiConsumer<WorkResponse.Builder, A> set) {
    return new StreamObserver<>() {
      @Override
      public void onNext(A answer) {
        WorkResponse.Builder response = WorkResponse.newBuilder().setRequestId(id);
        set.accept(response, answer);
        send(response.build());
      }

      @Override
      public void onError(Throwable t) {
        send(WorkResponse.newBuilder().setRequestId(id).setError(RequestErrors.of(t)).build());
      }

      @Override
      public void onCompleted() {}
    };
  }

  private void send(WorkResponse response) {
    synchronized (answers) {
      answers.onNext(response);
    }
  }

  @Override
  public void onError(Throwable t) {}

  @Override
  public void onCompleted() {
    synchronized (answers) {
      answers.onCompleted();
    }
  }
}
