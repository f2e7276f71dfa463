package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.JobServiceCalls;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.JobWatchers;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.CancelJobResponse;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueBatchResponse;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListDependenciesResponse;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.antrean.proto.v1.WatchJobRequest;
import io.antrean.proto.v1.WatchJobResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Clock;

/**
 * The producer-facing RPCs: the unary ones answered by {@link JobServiceCalls}, Produce by a {@link
 * ProduceStream} on the same calls, WatchJob by a {@link JobWatchStream} registered with {@link
 * JobWatchers} (no thread per watch).
 */
final class GrpcJobService extends JobServiceGrpc.JobServiceImplBase {
  private final JobServiceCalls calls;
  private final JobWatchers watchers;
  private final RequestStreams streams;

  /**
   * @param streams admits, times and runs the requests of Produce streams, and keeps them
   */
  GrpcJobService(
      JobScheduler scheduler, Clock clock, JobWatchers watchers, RequestStreams streams) {
    this.calls = new JobServiceCalls(scheduler, clock);
    this.watchers = watchers;
    this.streams = streams;
  }

  /** Enqueue and EnqueueBatch as messages of one stream ({@link ProduceStream}). */
  @Override
  public StreamObserver<ProduceRequest> produce(StreamObserver<ProduceResponse> observer) {
    return streams.add(
        new ProduceStream((ServerCallStreamObserver<ProduceResponse>) observer, calls, streams));
  }

  @Override
  public void enqueue(EnqueueRequest request, StreamObserver<EnqueueResponse> observer) {
    Unary.answerAsync(observer, () -> calls.enqueueAsync(request));
  }

  @Override
  public void enqueueBatch(
      EnqueueBatchRequest request, StreamObserver<EnqueueBatchResponse> observer) {
    Unary.answerAsync(observer, () -> calls.enqueueBatchAsync(request));
  }

  @Override
  public void getJob(GetJobRequest request, StreamObserver<GetJobResponse> observer) {
    Unary.answer(observer, () -> calls.getJob(request));
  }

  @Override
  public void listDependencies(
      ListDependenciesRequest request, StreamObserver<ListDependenciesResponse> observer) {
    Unary.answer(observer, () -> calls.listDependencies(request));
  }

  @Override
  public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> observer) {
    Unary.answer(observer, () -> calls.listJobs(request));
  }

  @Override
  public void cancelJob(CancelJobRequest request, StreamObserver<CancelJobResponse> observer) {
    Unary.answer(observer, () -> calls.cancelJob(request));
  }

  @Override
  public void getStats(GetStatsRequest request, StreamObserver<GetStatsResponse> observer) {
    Unary.answer(observer, () -> calls.getStats(request));
  }

  @Override
  public void watchJob(WatchJobRequest request, StreamObserver<WatchJobResponse> observer) {
    JobWatchStream stream =
        new JobWatchStream((ServerCallStreamObserver<WatchJobResponse>) observer);
    try {
      JobServiceCalls.requirePositiveId(request.getId());
      calls.checkAccess(request.getId());
      stream.attach(watchers.watch(request.getId(), stream));
    } catch (RuntimeException e) {
      stream.onEnd(e);
    }
  }
}
