package io.antrean.worker.testing;

import io.antrean.proto.RequestErrors;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

/**
 * A Work stream served as the coordinator serves it: each lease and complete_batch answered by the
 * service's own unary method, under its request id, errors with their details. Each request runs on
 * a thread of its own, as a call would, so a request the service holds does not hold the others. A
 * cancel or the worker's half-close withdraws a waiting lease: its jobs, if it took any meanwhile,
 * go back to the queue, as the coordinator's withdrawal leaves them (unless the service plays
 * answers that cross the cancel); after a half-close the stream ends once every request is
 * answered.
 */
final class WorkOverCalls implements StreamObserver<WorkRequest> {
  private static final ExecutorService CALLS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "fake-work-request");
            thread.setDaemon(true);
            return thread;
          });

  private final FakeWorkerService service;
  private final StreamObserver<WorkResponse> answers;
  private final Map<Long, Future<?>> waitingLeases = new ConcurrentHashMap<>();
  private final Map<Long, Boolean> withdrawn = new ConcurrentHashMap<>();
  private int unanswered; // guarded by answers
  private boolean halfClosed; // guarded by answers
  private boolean ended; // guarded by answers

  WorkOverCalls(FakeWorkerService service, StreamObserver<WorkResponse> answers) {
    this.service = service;
    this.answers = answers;
  }

  @Override
  public void onNext(WorkRequest request) {
    long id = request.getRequestId();
    switch (request.getCallCase()) {
      case LEASE -> {
        started();
        waitingLeases.put(
            id,
            CALLS.submit(() -> service.lease(request.getLease(), answerTo(id, this::setLease))));
      }
      case COMPLETE_BATCH -> {
        started();
        CALLS.execute(
            () ->
                service.completeBatch(
                    request.getCompleteBatch(),
                    answerTo(id, WorkResponse.Builder::setCompleteBatch)));
      }
      default -> withdraw(id);
    }
  }

  private void started() {
    synchronized (answers) {
      unanswered++;
    }
  }

  private void setLease(WorkResponse.Builder response, LeaseResponse lease) {
    response.setLease(lease);
  }

  /** Withdraws a waiting lease: it stops waiting, and what it took goes back. */
  private void withdraw(long id) {
    if (service.answersCrossCancels) {
      return;
    }
    withdrawn.put(id, true);
    Future<?> waiting = waitingLeases.get(id);
    if (waiting != null) {
      waiting.cancel(true);
    }
  }

  private <A> StreamObserver<A> answerTo(long id, BiConsumer<WorkResponse.Builder, A> set) {
    return new StreamObserver<>() {
      @Override
      public void onNext(A answer) {
        WorkResponse.Builder response = WorkResponse.newBuilder().setRequestId(id);
        set.accept(response, answer);
        answered(id, response.build());
      }

      @Override
      public void onError(Throwable t) {
        answered(
            id, WorkResponse.newBuilder().setRequestId(id).setError(RequestErrors.of(t)).build());
      }

      @Override
      public void onCompleted() {}
    };
  }

  private void answered(long id, WorkResponse response) {
    synchronized (answers) {
      waitingLeases.remove(id);
      unanswered--;
      if (withdrawn.remove(id) != null || ended) {
        service.giveBack(response.getLease().getJobsList());
      } else {
        answers.onNext(response);
      }
      endIfDone();
    }
  }

  private void endIfDone() {
    if (halfClosed && unanswered == 0 && !ended) {
      ended = true;
      answers.onCompleted();
    }
  }

  @Override
  public void onError(Throwable t) {
    synchronized (answers) {
      ended = true;
    }
    waitingLeases.keySet().forEach(this::withdraw);
  }

  @Override
  public void onCompleted() {
    synchronized (answers) {
      halfClosed = true;
    }
    waitingLeases.keySet().forEach(this::withdraw);
    synchronized (answers) {
      endIfDone();
    }
  }
}
