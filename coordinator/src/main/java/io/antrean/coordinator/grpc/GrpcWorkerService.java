package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.CallerIdentity;
import io.antrean.coordinator.api.JobMapper;
import io.antrean.coordinator.api.ProtoTime;
import io.antrean.coordinator.api.WorkerMapper;
import io.antrean.coordinator.core.CompletionsAndLeases;
import io.antrean.coordinator.core.HeldHeartbeat;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.LeaseCommand;
import io.antrean.coordinator.core.WorkerIdentity;
import io.antrean.coordinator.core.WorkerIds;
import io.antrean.coordinator.core.WorkerRegistry;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteResponse;
import io.antrean.proto.v1.CompleteStatus;
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
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/**
 * The worker-facing RPCs. Lease is asynchronous: a waiting call holds no thread. Every call is also
 * reported to the {@link WorkerRegistry}, at the clock's time.
 */
public final class GrpcWorkerService extends WorkerServiceGrpc.WorkerServiceImplBase {
  private final JobScheduler scheduler;
  private final WorkerRegistry workers;
  private final Clock clock;

  public GrpcWorkerService(JobScheduler scheduler, WorkerRegistry workers, Clock clock) {
    this.scheduler = scheduler;
    this.workers = workers;
    this.clock = clock;
  }

  @Override
  public void lease(LeaseRequest request, StreamObserver<LeaseResponse> observer) {
    CompletableFuture<List<Job>> jobs;
    String workerId = CallerIdentity.workerId(request.getWorkerId());
    // Only an acceptable id is registered; the core rejects the call with the reason below.
    boolean known = WorkerIds.problem(workerId) == null;
    WorkerIdentity identity;
    try {
      identity = WorkerMapper.identity(request.hasWorker(), request.getWorker());
    } catch (RuntimeException e) {
      // A bad worker description is the request's fault; it must not escape as UNKNOWN.
      observer.onError(StatusMapping.toStatus(e));
      return;
    }
    if (known) {
      leaseStarted(workerId, identity, request);
    }
    try {
      jobs = scheduler.lease(leaseCommand(request, ""));
    } catch (RuntimeException e) {
      if (known) {
        workers.leaseEnded(workerId, 0, clock.instant());
      }
      observer.onError(StatusMapping.toStatus(e));
      return;
    }
    if (observer instanceof ServerCallStreamObserver<LeaseResponse> call) {
      call.setOnCancelHandler(() -> jobs.cancel(false));
    }
    jobs.whenComplete(
        (leased, error) -> {
          if (known) {
            workers.leaseEnded(workerId, error == null ? leased.size() : 0, clock.instant());
          }
          if (error != null) {
            if (!jobs.isCancelled()) {
              observer.onError(StatusMapping.toStatus(error));
            }
            return;
          }
          LeaseResponse.Builder b = LeaseResponse.newBuilder();
          leased.forEach(j -> b.addJobs(JobMapper.leasedJob(j)));
          observer.onNext(b.build());
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
                    (job, e) -> reported(CallerIdentity.workerId(request.getWorkerId()), 1))
                .thenApply(job -> CompleteResponse.getDefaultInstance()));
  }

  @Override
  public void completeBatch(
      CompleteBatchRequest request, StreamObserver<CompleteBatchResponse> observer) {
    String workerId = CallerIdentity.workerId(request.getWorkerId());
    Unary.answerAsync(
        observer,
        () -> {
          List<Completion> completions = new ArrayList<>(request.getItemsCount());
          for (int n = 0; n < request.getItemsCount(); n++) {
            CompleteItem i = request.getItems(n);
            completions.add(
                new Completion(
                    i.getJobId(),
                    LeaseClaims.of(
                        i.getFencingToken(), i.getLeaseId(), "items[" + n + "].lease_id"),
                    i.getResult().toByteArray(),
                    emptyToNull(i.getResultContentType())));
          }
          if (!request.hasLeaseNext()) {
            return scheduler
                .completeAll(workerId, completions)
                .whenComplete((o, e) -> reported(workerId, completions.size()))
                .thenApply(o -> completeBatchResponse(o, List.of()));
          }
          return completeThenLease(workerId, completions, request.getLeaseNext());
        });
  }

  /** A CompleteBatch with lease_next: its items, then a lease that does not wait. */
  private CompletableFuture<CompleteBatchResponse> completeThenLease(
      String workerId, List<Completion> completions, LeaseRequest next) {
    WorkerIdentity identity = WorkerMapper.identity(next.hasWorker(), next.getWorker());
    CompletableFuture<CompletionsAndLeases> answer =
        scheduler.completeAllThenLease(workerId, completions, leaseCommand(next, "lease_next."));
    boolean known = WorkerIds.problem(workerId) == null;
    if (known) {
      leaseStarted(workerId, identity, next);
    }
    return answer
        .whenComplete(
            (a, e) -> {
              reported(workerId, completions.size());
              if (known) {
                workers.leaseEnded(workerId, e == null ? a.leased().size() : 0, clock.instant());
              }
            })
        .thenApply(a -> completeBatchResponse(a.outcomes(), a.leased()));
  }

  /**
   * The request as the core takes it; its durations' fields are named under {@code fieldPrefix}. An
   * empty worker id stays empty.
   */
  private static LeaseCommand leaseCommand(LeaseRequest request, String fieldPrefix) {
    return new LeaseCommand(
        CallerIdentity.workerId(request.getWorkerId()),
        request.getQueue(),
        request.getTypesList(),
        request.getMaxJobs(),
        request.hasLeaseTtl()
            ? ProtoTime.requestDuration(request.getLeaseTtl(), fieldPrefix + "lease_ttl")
            : null,
        request.hasWait()
            ? ProtoTime.requestDuration(request.getWait(), fieldPrefix + "wait")
            : null);
  }

  /** Tells the worker registry a lease began, with what the worker said about itself. */
  private void leaseStarted(
      String workerId, @Nullable WorkerIdentity identity, LeaseRequest request) {
    workers.leaseStarted(
        workerId,
        identity,
        request.getQueue().isEmpty() ? "default" : request.getQueue(),
        request.getTypesList(),
        clock.instant());
  }

  private static CompleteBatchResponse completeBatchResponse(
      List<CompletionOutcome> outcomes, List<Job> leased) {
    CompleteBatchResponse.Builder b = CompleteBatchResponse.newBuilder();
    for (CompletionOutcome o : outcomes) {
      b.addOutcomesBuilder().setJobId(o.jobId()).setStatus(completeStatus(o.status()));
    }
    leased.forEach(j -> b.addLeasedJobs(JobMapper.leasedJob(j)));
    return b.build();
  }

  private static CompleteStatus completeStatus(CompletionOutcome.Status s) {
    return switch (s) {
      case COMPLETED -> CompleteStatus.COMPLETE_STATUS_COMPLETED;
      case LEASE_LOST -> CompleteStatus.COMPLETE_STATUS_LEASE_LOST;
      case NOT_FOUND -> CompleteStatus.COMPLETE_STATUS_NOT_FOUND;
    };
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
            reported(CallerIdentity.workerId(request.getWorkerId()), 1);
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
            reported(CallerIdentity.workerId(request.getWorkerId()), 1);
          }
          return ReleaseResponse.getDefaultInstance();
        });
  }

  /** Counts reported jobs of a worker the registry already knows; ignores a missing or bad id. */
  private void reported(String workerId, int jobs) {
    if (WorkerIds.problem(workerId) == null) {
      workers.reported(workerId, jobs, clock.instant());
    }
  }

  private static String emptyToNull(String s) {
    return s.isEmpty() ? null : s;
  }
}
