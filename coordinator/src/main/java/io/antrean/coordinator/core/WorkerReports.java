package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.LeaseRef;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.RetryPlanner;
import io.antrean.coordinator.store.StoreFutures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import javax.annotation.Nullable;

/**
 * What workers report about their leases: heartbeats, completions one at a time or batched, fails
 * and releases. The store's change, then the lease timers moved or forgotten and the events told
 * (run time, stale rejections). Completions never block: what follows the store's change runs when
 * its future completes. Thread-safe.
 */
final class WorkerReports {
  private final JobStore store;
  private final Clock clock;
  private final WorkerRequests requests;
  private final LeaseExpiryTimers timers;
  private final SchedulerEvents events;
  private final RetryPlanner planner;
  private final DueWakeups wakeups;
  private final LongPoll longPoll;
  private final BiConsumer<Job, Instant> deadLettered;

  /**
   * @param wakeups wakes waiting Lease calls when a failed job's retry is due
   * @param longPoll woken when a released job is pending again
   * @param deadLettered told of a job a Fail sent to the dead-letter queue
   */
  WorkerReports(
      JobStore store,
      Clock clock,
      WorkerRequests requests,
      LeaseExpiryTimers timers,
      SchedulerEvents events,
      RetryPlanner planner,
      DueWakeups wakeups,
      LongPoll longPoll,
      BiConsumer<Job, Instant> deadLettered) {
    this.store = store;
    this.clock = clock;
    this.requests = requests;
    this.timers = timers;
    this.events = events;
    this.planner = planner;
    this.wakeups = wakeups;
    this.longPoll = longPoll;
    this.deadLettered = deadLettered;
  }

  /**
   * Extends every lease a worker holds; answers per lease.
   *
   * @throws ValidationException for a missing worker id, too many leases or a bad TTL
   */
  List<HeartbeatResult> heartbeat(
      String workerId, List<LeaseRenewal> renewals, @Nullable Duration leaseTtl) {
    List<LeaseRenewal> cut = WorkerRequests.heartbeat(workerId, renewals, leaseTtl);
    Instant now = clock.instant();
    List<HeartbeatResult> results =
        store.heartbeat(workerId, cut, now.plus(requests.ttl(leaseTtl)), now);
    for (HeartbeatResult r : results) {
      if (r.status() == HeartbeatResult.Status.LOST) {
        events.onStaleRejected();
        continue;
      }
      timers.track(new LeaseRef(r.jobId(), r.fencingToken(), r.expiresAt()));
    }
    return results;
  }

  /**
   * @throws ValidationException for a missing job id or worker id, or a result past the limit, at
   *     once
   */
  CompletableFuture<Job> complete(
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType) {
    WorkerRequests.complete(jobId, workerId, result == null ? 0 : result.length);
    Instant now = clock.instant();
    return store
        .completeAsync(jobId, claim, workerId, result, resultContentType, now)
        .handle(
            (job, error) -> {
              if (error != null) {
                RuntimeException failure = StoreFutures.unwrap(error);
                if (failure instanceof LeaseLostException) {
                  events.onStaleRejected();
                }
                throw failure;
              }
              if (!isRepeat(job, now)) {
                events.onCompleted(
                    job.id(), job.queue(), runTime(jobId, claim.fencingToken(), now));
              }
              return job;
            });
  }

  /**
   * @throws ValidationException for a missing worker id, no completions, too many, or a job named
   *     twice, at once
   */
  CompletableFuture<List<CompletionOutcome>> completeAll(
      String workerId, List<Completion> completions) {
    WorkerRequests.completeBatch(workerId, completions);
    Instant now = clock.instant();
    return store
        .completeAllAsync(workerId, completions, now)
        .thenApply(
            outcomes -> {
              for (int i = 0; i < outcomes.size(); i++) {
                CompletionOutcome o = outcomes.get(i);
                switch (o.status()) {
                  case COMPLETED -> {
                    if (!o.repeat()) {
                      events.onCompleted(
                          o.jobId(),
                          o.queue(),
                          runTime(o.jobId(), completions.get(i).fencingToken(), now));
                    }
                  }
                  case LEASE_LOST -> events.onStaleRejected();
                  case NOT_FOUND -> {}
                }
              }
              return outcomes;
            });
  }

  /** Records a failed attempt; the job is retried later or dead-lettered. */
  Job fail(long jobId, LeaseClaim claim, String workerId, Failure failure) {
    WorkerRequests.leaseCall(jobId, workerId);
    Failure bounded = WorkerRequests.failure(failure);
    Instant now = clock.instant();
    Job job;
    try {
      job = store.fail(jobId, claim, workerId, bounded, planner, now);
    } catch (LeaseLostException e) {
      events.onStaleRejected();
      throw e;
    }
    if (isRepeat(job, now)) {
      return job;
    }
    events.onFailed(job, failure.kind(), runTime(jobId, claim.fencingToken(), now));
    if (job.state() == JobState.PENDING) {
      wakeups.wakeAt(job.queue(), job.runAt());
    } else if (job.state() == JobState.FAILED) {
      deadLettered.accept(job, now);
    }
    return job;
  }

  /** Hands a job back without spending an attempt. */
  Job release(long jobId, LeaseClaim claim, String workerId, String reason) {
    WorkerRequests.leaseCall(jobId, workerId);
    Job job;
    try {
      job = store.release(jobId, claim, workerId, reason, clock.instant());
    } catch (LeaseLostException e) {
      events.onStaleRejected();
      throw e;
    }
    timers.untrack(jobId);
    events.onReleased(job);
    if (job.state() == JobState.PENDING) {
      longPoll.jobsReady(job.queue());
    }
    return job;
  }

  /**
   * Whether the store answered a repeat of the worker's own accepted report: it changed nothing, so
   * the job was last changed before this call's {@code now} (a change made now carries {@code now},
   * to the microsecond the stores keep). A repeat is reported to nobody a second time.
   */
  static boolean isRepeat(Job job, Instant now) {
    return job.updatedAt().isBefore(now.truncatedTo(ChronoUnit.MICROS));
  }

  /** Forgets the lease that just ended and answers how long it ran, if this coordinator knows. */
  @Nullable
  Duration runTime(long jobId, long fencingToken, Instant now) {
    Instant leasedAt = timers.untrack(jobId, fencingToken);
    return leasedAt == null ? null : Duration.between(leasedAt, now);
  }
}
