package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.CallerIdentity;
import io.antrean.coordinator.api.JobMapper;
import io.antrean.coordinator.api.ProtoTime;
import io.antrean.coordinator.api.WorkerMapper;
import io.antrean.coordinator.core.CompletionsAndLeases;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.LeaseCommand;
import io.antrean.coordinator.core.WorkerIdentity;
import io.antrean.coordinator.core.WorkerIds;
import io.antrean.coordinator.core.WorkerRegistry;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/**
 * The answers to Lease and CompleteBatch, whether they came as calls ({@link GrpcWorkerService}) or
 * as messages of a Work stream ({@link WorkStream}): the core's work, and the worker registry told
 * of it at the clock's time. Thread-safe.
 */
final class WorkerAnswers {
  /**
   * A CompleteBatch of at least this many items is stored among the other writes ({@link
   * JobScheduler#amongOtherWrites}): on SQLite the writer thread takes it even in a quiet moment.
   * Under load a busy worker's batch carries about as many jobs as it leases ahead (its
   * concurrency: 4 by default, 25 in the bench), and its statements, commit and fsync on the thread
   * that read it held the other workers' messages unread while the writer thread idled; at 500
   * jobs/s a batch carries three or four jobs and keeps the quiet moment's path, as does every
   * batch of a worker that runs fewer than 8 jobs at a time. docs/benchmarks.md, "A large
   * CompleteBatch among the others".
   */
  static final int AMONG_OTHERS_FROM = 8;

  private final JobScheduler scheduler;
  private final WorkerRegistry workers;
  private final Clock clock;

  WorkerAnswers(JobScheduler scheduler, WorkerRegistry workers, Clock clock) {
    this.scheduler = scheduler;
    this.workers = workers;
    this.clock = clock;
  }

  /**
   * Lease's answer. Cancelling it withdraws a lease that still waits; jobs leased for it at that
   * moment are handed back.
   *
   * @throws RuntimeException for a request refused before it could wait
   */
  CompletableFuture<LeaseResponse> lease(LeaseRequest request) {
    String workerId = CallerIdentity.workerId(request.getWorkerId());
    // Only an acceptable id is registered; the core rejects the call with the reason below.
    boolean known = WorkerIds.problem(workerId) == null;
    // A bad worker description is the request's fault; it must not escape as UNKNOWN.
    WorkerIdentity identity = WorkerMapper.identity(request.hasWorker(), request.getWorker());
    if (known) {
      leaseStarted(workerId, identity, request);
    }
    CompletableFuture<List<Job>> jobs;
    try {
      jobs = scheduler.lease(leaseCommand(request, ""));
    } catch (RuntimeException e) {
      if (known) {
        workers.leaseEnded(workerId, 0, clock.instant());
      }
      throw e;
    }
    CompletableFuture<LeaseResponse> answer = new CompletableFuture<>();
    answer.whenComplete(
        (response, error) -> {
          if (answer.isCancelled()) {
            jobs.cancel(false);
          }
        });
    jobs.whenComplete(
        (leased, error) -> {
          if (known) {
            workers.leaseEnded(workerId, error == null ? leased.size() : 0, clock.instant());
          }
          if (error != null) {
            answer.completeExceptionally(error);
            return;
          }
          LeaseResponse.Builder b = LeaseResponse.newBuilder();
          leased.forEach(j -> b.addJobs(JobMapper.leasedJob(j)));
          if (!answer.complete(b.build())) {
            scheduler.unclaimedLeases().giveBack(leased);
          }
        });
    return answer;
  }

  /**
   * Hands back the jobs of an answer (a Lease's jobs, a CompleteBatch's leased_jobs) that was made
   * and will not reach its worker: the request was withdrawn, or its call or stream ended, as it
   * was answered. Each spends no attempt, and need not wait for its lease to expire.
   */
  void giveBack(List<io.antrean.proto.v1.Job> undelivered) {
    for (io.antrean.proto.v1.Job job : undelivered) {
      scheduler
          .unclaimedLeases()
          .giveBack(
              job.getId(),
              LeaseClaims.of(
                  job.getLease().getFencingToken(), job.getLease().getLeaseId(), "lease_id"),
              job.getLease().getWorkerId());
    }
  }

  /**
   * CompleteBatch's answer.
   *
   * @throws RuntimeException for a request refused before any item was judged
   */
  CompletableFuture<CompleteBatchResponse> completeBatch(CompleteBatchRequest request) {
    String workerId = CallerIdentity.workerId(request.getWorkerId());
    List<Completion> completions = new ArrayList<>(request.getItemsCount());
    for (int n = 0; n < request.getItemsCount(); n++) {
      CompleteItem i = request.getItems(n);
      completions.add(
          new Completion(
              i.getJobId(),
              LeaseClaims.of(i.getFencingToken(), i.getLeaseId(), "items[" + n + "].lease_id"),
              i.getResult().toByteArray(),
              emptyToNull(i.getResultContentType())));
    }
    return completions.size() >= AMONG_OTHERS_FROM
        ? scheduler.amongOtherWrites(() -> stored(workerId, completions, request))
        : stored(workerId, completions, request);
  }

  /** The completions stored, then the lease_next if the request has one. */
  private CompletableFuture<CompleteBatchResponse> stored(
      String workerId, List<Completion> completions, CompleteBatchRequest request) {
    if (!request.hasLeaseNext()) {
      return scheduler
          .completeAll(workerId, completions)
          .whenComplete((o, e) -> reported(workerId, completions.size()))
          .thenApply(o -> completeBatchResponse(o, List.of()));
    }
    return completeThenLease(workerId, completions, request.getLeaseNext());
  }

  /**
   * A CompleteBatch with lease_next: its items, then a lease that does not wait. Cancelling the
   * answer does not stop them; the jobs leased for it are then handed back.
   */
  private CompletableFuture<CompleteBatchResponse> completeThenLease(
      String workerId, List<Completion> completions, LeaseRequest next) {
    WorkerIdentity identity = WorkerMapper.identity(next.hasWorker(), next.getWorker());
    CompletableFuture<CompletionsAndLeases> stored =
        scheduler.completeAllThenLease(workerId, completions, leaseCommand(next, "lease_next."));
    boolean known = WorkerIds.problem(workerId) == null;
    if (known) {
      leaseStarted(workerId, identity, next);
    }
    CompletableFuture<CompleteBatchResponse> answer = new CompletableFuture<>();
    stored.whenComplete(
        (a, e) -> {
          reported(workerId, completions.size());
          if (known) {
            workers.leaseEnded(workerId, e == null ? a.leased().size() : 0, clock.instant());
          }
          if (e != null) {
            answer.completeExceptionally(e);
          } else if (!answer.complete(completeBatchResponse(a.outcomes(), a.leased()))) {
            scheduler.unclaimedLeases().giveBack(a.leased());
          }
        });
    return answer;
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

  /** Counts reported jobs of a worker the registry already knows; ignores a missing or bad id. */
  void reported(String workerId, int jobs) {
    if (WorkerIds.problem(workerId) == null) {
      workers.reported(workerId, jobs, clock.instant());
    }
  }

  static String emptyToNull(String s) {
    return s.isEmpty() ? null : s;
  }
}
