package io.antrean.coordinator.grpc;

import static io.antrean.coordinator.grpc.WorkerAnswers.emptyToNull;

import io.antrean.coordinator.api.CallerIdentity;
import io.antrean.coordinator.api.JobMapper;
import io.antrean.coordinator.api.ProtoTime;
import io.antrean.coordinator.api.WorkerMapper;
import io.antrean.coordinator.core.HeldHeartbeat;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.WorkerRegistry;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteResponse;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.FailResponse;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.HeartbeatResponse;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.LeaseState;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.proto.v1.ReleaseRequest;
import io.antrean.proto.v1.ReleaseResponse;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The worker-facing RPCs. Lease is asynchronous: a waiting call holds no thread. Every call is also
 * reported to the {@link WorkerRegistry}, at the clock's time. Lease and CompleteBatch are answered
 * by {@link WorkerAnswers}, as calls and as the messages of a Work stream ({@link WorkStream}).
 */
final class GrpcWorkerService extends WorkerServiceGrpc.WorkerServiceImplBase {
  private final JobScheduler scheduler;
  private final WorkerRegistry workers;
  private final Clock clock;
  private final WorkerAnswers answers;
  private final RequestStreams streams;

  /**
   * @param streams admits, times and runs the requests of Work streams, and keeps them
   */
  GrpcWorkerService(
      JobScheduler scheduler, WorkerRegistry workers, Clock clock, RequestStreams streams) {
    this.scheduler = scheduler;
    this.workers = workers;
    this.clock = clock;
    this.streams = streams;
    this.answers = new WorkerAnswers(scheduler, workers, clock);
  }

  /** Lease and CompleteBatch as messages of one stream ({@link WorkStream}). */
  @Override
  public StreamObserver<WorkRequest> work(StreamObserver<WorkResponse> observer) {
    return streams.add(
        new WorkStream((ServerCallStreamObserver<WorkResponse>) observer, answers, streams));
  }

  @Override
  public void lease(LeaseRequest request, StreamObserver<LeaseResponse> observer) {
    CompletableFuture<LeaseResponse> answer;
    try {
      answer = answers.lease(request);
    } catch (RuntimeException e) {
      observer.onError(StatusMapping.toStatus(e));
      return;
    }
    ServerCallStreamObserver<LeaseResponse> call =
        observer instanceof ServerCallStreamObserver<LeaseResponse> c ? c : null;
    if (call != null) {
      call.setOnCancelHandler(() -> answer.cancel(false));
    }
    answer.whenComplete(
        (response, error) -> {
          if (answer.isCancelled()) {
            return;
          }
          if (error != null) {
            observer.onError(StatusMapping.toStatus(error));
            return;
          }
          if (call != null && call.isCancelled()) {
            // Answered as the call went away: nobody reads these jobs.
            answers.giveBack(response.getJobsList());
            return;
          }
          observer.onNext(response);
          observer.onCompleted();
        });
  }

  @Override
  public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> observer) {
    // Read here, on the call's context; the answer may come from another thread.
    String workerId = CallerIdentity.workerId(request.getWorkerId());
    CompletableFuture<HeldHeartbeat> answer;
    try {
      List<LeaseRenewal> renewals = new ArrayList<>(request.getLeasesCount());
      for (int i = 0; i < request.getLeasesCount(); i++) {
        io.antrean.proto.v1.LeaseRef l = request.getLeases(i);
        renewals.add(
            new LeaseRenewal(
                l.getJobId(),
                LeaseClaims.of(l.getFencingToken(), l.getLeaseId(), "leases[" + i + "].lease_id"),
                l.getProgress().isEmpty() ? null : l.getProgress()));
      }
      answer =
          scheduler.heartbeat(
              CallerIdentity.workerId(request.getWorkerId()),
              renewals,
              request.hasLeaseTtl()
                  ? ProtoTime.requestDuration(request.getLeaseTtl(), "lease_ttl")
                  : null,
              request.hasWait() ? ProtoTime.requestDuration(request.getWait(), "wait") : null);
    } catch (RuntimeException e) {
      observer.onError(StatusMapping.toStatus(e));
      return;
    }
    if (observer instanceof ServerCallStreamObserver<HeartbeatResponse> call) {
      call.setOnCancelHandler(() -> answer.cancel(false));
    }
    answer.whenComplete(
        (held, error) -> {
          if (answer.isCancelled()) {
            return;
          }
          if (error != null) {
            observer.onError(StatusMapping.toStatus(error));
            return;
          }
          observer.onNext(response(request, workerId, held));
          observer.onCompleted();
        });
  }

  private HeartbeatResponse response(
      HeartbeatRequest request, String workerId, HeldHeartbeat held) {
    HeartbeatResponse.Builder b = HeartbeatResponse.newBuilder().setWoken(held.woken());
    int kept = 0;
    for (HeartbeatResult r : held.results()) {
      if (r.status() != HeartbeatResult.Status.LOST) {
        kept++;
      }
      LeaseState.Builder s =
          LeaseState.newBuilder()
              .setJobId(r.jobId())
              .setFencingToken(r.fencingToken())
              .setStatus(status(r.status()));
      if (r.expiresAt() != null) {
        s.setExpiresAt(ProtoTime.timestamp(r.expiresAt()));
      }
      b.addLeases(s);
    }
    workers.heartbeat(
        workerId,
        WorkerMapper.identity(request.hasWorker(), request.getWorker()),
        kept,
        clock.instant());
    return b.build();
  }

  private static LeaseStatus status(HeartbeatResult.Status s) {
    return switch (s) {
      case EXTENDED -> LeaseStatus.LEASE_STATUS_EXTENDED;
      case LOST -> LeaseStatus.LEASE_STATUS_LOST;
      case CANCEL_REQUESTED -> LeaseStatus.LEASE_STATUS_CANCEL_REQUESTED;
    };
  }

  @Override
  public void complete(CompleteRequest request, StreamObserver<CompleteResponse> observer) {
    Unary.answerAsync(
        observer,
        () ->
            scheduler
                .completeAsync(
                    request.getJobId(),
                    LeaseClaims.of(request.getFencingToken(), request.getLeaseId(), "lease_id"),
                    CallerIdentity.workerId(request.getWorkerId()),
                    request.getResult().toByteArray(),
                    emptyToNull(request.getResultContentType()))
                .whenComplete(
                    (job, e) -> answers.reported(CallerIdentity.workerId(request.getWorkerId()), 1))
                .thenApply(job -> CompleteResponse.getDefaultInstance()));
  }

  @Override
  public void completeBatch(
      CompleteBatchRequest request, StreamObserver<CompleteBatchResponse> observer) {
    Unary.answerAsync(
        observer,
        () ->
            answers
                .completeBatch(request)
                .whenComplete(
                    (response, error) -> {
                      if (response != null
                          && observer instanceof ServerCallStreamObserver<?> call
                          && call.isCancelled()) {
                        // Answered as the call went away: nobody reads its lease_next jobs.
                        answers.giveBack(response.getLeasedJobsList());
                      }
                    }));
  }

  @Override
  public void fail(FailRequest request, StreamObserver<FailResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          Failure failure =
              new Failure(
                  JobMapper.errorKind(request.getKind()),
                  emptyToNull(request.getErrorType()),
                  emptyToNull(request.getErrorMessage()),
                  emptyToNull(request.getStackTrace()),
                  request.hasRetryAfter()
                      ? ProtoTime.requestDuration(request.getRetryAfter(), "retry_after")
                      : null);
          Job job;
          try {
            job =
                scheduler.fail(
                    request.getJobId(),
                    LeaseClaims.of(request.getFencingToken(), request.getLeaseId(), "lease_id"),
                    CallerIdentity.workerId(request.getWorkerId()),
                    failure);
          } finally {
            answers.reported(CallerIdentity.workerId(request.getWorkerId()), 1);
          }
          FailResponse.Builder b = FailResponse.newBuilder().setState(JobMapper.state(job.state()));
          if (job.state() == JobState.PENDING) {
            b.setNextRunAt(ProtoTime.timestamp(job.runAt()));
          }
          return b.build();
        });
  }

  @Override
  public void release(ReleaseRequest request, StreamObserver<ReleaseResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          try {
            scheduler.release(
                request.getJobId(),
                LeaseClaims.of(request.getFencingToken(), request.getLeaseId(), "lease_id"),
                CallerIdentity.workerId(request.getWorkerId()),
                request.getReason().isEmpty() ? "released" : request.getReason());
          } finally {
            answers.reported(CallerIdentity.workerId(request.getWorkerId()), 1);
          }
          return ReleaseResponse.getDefaultInstance();
        });
  }
}
