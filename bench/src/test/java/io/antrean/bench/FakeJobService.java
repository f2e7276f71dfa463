package io.antrean.bench;

import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueBatchResponse;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.antrean.proto.v1.QueueStats;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;

/**
 * {@link FakeQueues}' JobService: Enqueue and EnqueueBatch (also on a Produce stream), ListJobs of
 * succeeded jobs and GetStats, recording what the bench sent in the fake's fields.
 */
final class FakeJobService extends JobServiceGrpc.JobServiceImplBase {
  private final FakeQueues queues;

  FakeJobService(FakeQueues queues) {
    this.queues = queues;
  }

  @Override
  public StreamObserver<ProduceRequest> produce(StreamObserver<ProduceResponse> observer) {
    return new ProduceOverCalls(this, observer);
  }

  @Override
  public void enqueue(EnqueueRequest request, StreamObserver<EnqueueResponse> observer) {
    queues.maxEnqueuesInFlight.accumulateAndGet(
        queues.enqueuesInFlight.incrementAndGet(), Math::max);
    queues.enqueueCalls.incrementAndGet();
    queues.answerAfter(
        queues.enqueueMillis,
        () -> {
          EnqueueResponse response;
          try {
            response = EnqueueResponse.newBuilder().setJob(queues.store(request)).build();
          } catch (StatusRuntimeException e) {
            queues.enqueuesInFlight.decrementAndGet();
            observer.onError(e);
            return;
          }
          // Out of flight before answering: the client may send its next call at once.
          queues.enqueuesInFlight.decrementAndGet();
          observer.onNext(response);
          observer.onCompleted();
        });
  }

  @Override
  public void enqueueBatch(
      EnqueueBatchRequest request, StreamObserver<EnqueueBatchResponse> observer) {
    queues.batchSizes.add(request.getJobsCount());
    EnqueueBatchResponse.Builder response = EnqueueBatchResponse.newBuilder();
    request.getJobsList().forEach(job -> response.addResultsBuilder().setJob(queues.store(job)));
    observer.onNext(response.build());
    observer.onCompleted();
  }

  @Override
  public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> observer) {
    try {
      observer.onNext(queues.listSucceeded(request));
      observer.onCompleted();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
    }
  }

  @Override
  public void getStats(GetStatsRequest request, StreamObserver<GetStatsResponse> observer) {
    QueueStats stats = queues.stats(request.getQueue());
    if (request.getUnfinishedOnly()) {
      queues.unfinishedStatsCalls.incrementAndGet();
      stats = stats.toBuilder().clearSucceeded().build();
    } else {
      queues.fullStatsCalls.incrementAndGet();
    }
    observer.onNext(GetStatsResponse.newBuilder().addQueues(stats).build());
    observer.onCompleted();
  }
}
