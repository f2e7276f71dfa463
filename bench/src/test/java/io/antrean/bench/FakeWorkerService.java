package io.antrean.bench;

import com.google.protobuf.util.Timestamps;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteResponse;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.HeartbeatResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link FakeQueues}' WorkerService: Lease, Heartbeat, Complete and CompleteBatch, recording what
 * the workers asked for in the fake's fields and answering as its switches say.
 */
final class FakeWorkerService extends WorkerServiceGrpc.WorkerServiceImplBase {
  private final FakeQueues queues;

  FakeWorkerService(FakeQueues queues) {
    this.queues = queues;
  }

  @Override
  public void lease(LeaseRequest request, StreamObserver<LeaseResponse> observer) {
    queues.leaseMaxJobs.add(request.getMaxJobs());
    queues.leaseWorkers.add(request.getWorkerId());
    queues.leaseRequests.add(request);
    // A worker that stops cancels its poll; jobs leased to a cancelled call never reach it, and
    // the fake has no lease expiry to hand them out again, so they go back at once.
    AtomicReference<List<Job>> unanswered = new AtomicReference<>(List.of());
    ((ServerCallStreamObserver<LeaseResponse>) observer)
        .setOnCancelHandler(() -> queues.giveBack(unanswered.getAndSet(List.of())));
    List<Job> jobs;
    try {
      jobs = queues.leaseJobs(request);
      unanswered.set(jobs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      observer.onError(Status.CANCELLED.asRuntimeException());
      return;
    }
    queues.answerAfter(
        jobs.isEmpty() ? 0 : queues.leaseAnswerMillis,
        () -> {
          observer.onNext(LeaseResponse.newBuilder().addAllJobs(jobs).build());
          observer.onCompleted();
        });
  }

  @Override
  public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> observer) {
    HeartbeatResponse.Builder response = HeartbeatResponse.newBuilder();
    for (LeaseRef ref : request.getLeasesList()) {
      boolean held = queues.holds(ref.getJobId(), ref.getFencingToken());
      response
          .addLeasesBuilder()
          .setJobId(ref.getJobId())
          .setFencingToken(ref.getFencingToken())
          .setStatus(held ? LeaseStatus.LEASE_STATUS_EXTENDED : LeaseStatus.LEASE_STATUS_LOST)
          .setExpiresAt(Timestamps.fromMillis(System.currentTimeMillis() + 30_000));
    }
    observer.onNext(response.build());
    observer.onCompleted();
  }

  @Override
  public void complete(CompleteRequest request, StreamObserver<CompleteResponse> observer) {
    queues.unaryCompletes.incrementAndGet();
    try {
      queues.completeJob(request);
      observer.onNext(CompleteResponse.getDefaultInstance());
      observer.onCompleted();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
    }
  }

  @Override
  public void completeBatch(
      CompleteBatchRequest request, StreamObserver<CompleteBatchResponse> observer) {
    queues.completeBatchCalls.incrementAndGet();
    if (queues.completeBatchUnimplemented) {
      super.completeBatch(request, observer);
      return;
    }
    queues.completeBatchSizes.add(request.getItemsCount());
    AtomicInteger inFlight =
        queues.completeBatchesInFlight.computeIfAbsent(
            request.getWorkerId(), w -> new AtomicInteger());
    queues.maxCompleteBatchesInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    queues.answerAfter(
        queues.completeBatchMillis,
        () -> {
          CompleteBatchResponse response = queues.judgeBatch(request);
          // Out of flight before answering: the worker sends its next batch the moment it hears.
          inFlight.decrementAndGet();
          observer.onNext(response);
          observer.onCompleted();
        });
  }
}
