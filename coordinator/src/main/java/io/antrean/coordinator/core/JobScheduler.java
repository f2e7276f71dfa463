package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobNotFoundException;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.RetryPlanner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling core: every RPC of JobService and WorkerService lands here as a domain call. It
 * validates, asks the store for one atomic change, and keeps the event paths moving: an Enqueue
 * wakes waiting Lease calls, a lease starts an expiry timer, a job due later sets a wake-up.
 *
 * <p>Thread-safe. Time comes from the injected clock; background duties live in {@link
 * BackgroundDuties}.
 */
public final class JobScheduler {
  private static final Logger log = LoggerFactory.getLogger(JobScheduler.class);

  private final JobStore store;
  private final DependencyReads dependencies;
  private final Settings settings;
  private final Clock clock;
  private final EnqueueValidator validator;
  private final WorkerRequests requests;
  private final LeaseExpiryTimers timers;
  private final LongPoll longPoll;
  private final WaiterHandoff handoff;
  private final DueWakeups wakeups;
  private final DeadLetterMonitor deadLetterMonitor;
  private final SchedulerEvents events;
  private final WorkerReports reports;
  private final CancelWatch cancelWatch;
  private final LeaseTakenBack leaseTakenBack;
  private final UnclaimedLeases unclaimed;
  private final JobLeasing leasing;
  private final QueueReports queueReports;

  /**
   * @param scheduler runs long-poll timeouts and wake-ups of jobs due later; owned by the caller
   * @param dispatch serves waiting Lease calls when jobs become ready; owned by the caller
   */
  public JobScheduler(
      JobStore store,
      Settings settings,
      Clock clock,
      RetryPlanner planner,
      ScheduledExecutorService scheduler,
      Executor dispatch) {
    this(store, settings, clock, planner, scheduler, dispatch, SchedulerEvents.NONE);
  }

  /** As above, reporting what happens to {@code events}. */
  public JobScheduler(
      JobStore store,
      Settings settings,
      Clock clock,
      RetryPlanner planner,
      ScheduledExecutorService scheduler,
      Executor dispatch,
      SchedulerEvents events) {
    this.events = events;
    this.store = store;
    this.dependencies = new DependencyReads(store);
    this.settings = settings;
    this.clock = clock;
    this.validator = new EnqueueValidator(settings);
    this.requests = new WorkerRequests(settings);
    this.timers = new LeaseExpiryTimers();
    this.leasing = new JobLeasing(store, clock, timers, events);
    this.longPoll = new LongPoll(new StoreLeaser(), dispatch, scheduler);
    this.handoff = new WaiterHandoff(store, longPoll);
    this.cancelWatch = new CancelWatch(scheduler);
    this.wakeups = new DueWakeups(longPoll::jobsReady, scheduler, clock);
    this.reports =
        new WorkerReports(
            store, clock, requests, timers, events, planner, wakeups, longPoll, this::deadLettered);
    this.deadLetterMonitor = new DeadLetterMonitor(settings.deadLetterAlert());
    this.queueReports = new QueueReports(store, clock, settings.deadLetterAlert().window());
    this.leaseTakenBack = new LeaseTakenBack(events, longPoll, this::deadLettered);
    this.unclaimed = new UnclaimedLeases(reports, dispatch);
    // Jobs made ready through another coordinator (a shared PostgreSQL) wake our waiters too.
    store.subscribeJobsReady(longPoll::jobsReady);
    // A lease cut short by an empty rate-limit bucket: look again when its next token is in.
    store.subscribeTokenWakeups(wakeups::wakeAt);
  }

  /**
   * Stores one job durably and wakes a waiting worker if it is ready; the future completes once the
   * job is durable.
   *
   * @throws ValidationException for bad input, at once
   */
  public CompletableFuture<EnqueueResult> enqueueAsync(EnqueueCommand command) {
    Instant now = clock.instant();
    return storeAndAnnounce(List.of(validator.toNewJob(command, now)), now)
        .thenApply(r -> r.get(0));
  }

  /**
   * Stores many jobs in one durable write, all or none; the future completes once they are durable.
   *
   * @throws ValidationException for bad input, at once
   */
  public CompletableFuture<List<EnqueueResult>> enqueueBatchAsync(List<EnqueueCommand> commands) {
    Instant now = clock.instant();
    return storeAndAnnounce(validator.toNewJobs(commands, now), now);
  }

  /** Stores validated jobs; once durable, announces the ready ones ({@link WaiterHandoff}). */
  private CompletableFuture<List<EnqueueResult>> storeAndAnnounce(List<NewJob> jobs, Instant now) {
    return handoff
        .store(jobs, now)
        .thenApply(
            stored -> {
              announce(stored.results(), now, stored.queuesHandedOff());
              return stored.results();
            });
  }

  /** Announces jobs stored elsewhere (a schedule's fire) as if enqueued here: reports, wake-ups. */
  public void announce(List<EnqueueResult> results, Instant now) {
    announce(results, now, Set.of());
  }

  private void announce(List<EnqueueResult> results, Instant now, Set<String> handedOff) {
    HashSet<String> readyQueues = new HashSet<>();
    for (EnqueueResult r : results) {
      if (r.deduplicated()) {
        continue;
      }
      Job job = r.job();
      events.onEnqueued(job);
      if (job.runAt().isAfter(now)) {
        wakeups.wakeAt(job.queue(), job.runAt());
      } else {
        readyQueues.add(job.queue());
      }
    }
    readyQueues.removeAll(handedOff);
    readyQueues.forEach(longPoll::jobsReady);
  }

  /**
   * Leases jobs, waiting (without a thread) when none is ready. The future completes with the jobs,
   * or an empty list after the wait; cancelling it ends the wait, and jobs leased for it at that
   * moment are handed back ({@link UnclaimedLeases}).
   *
   * @throws ValidationException for bad input
   */
  public CompletableFuture<List<Job>> lease(LeaseCommand command) {
    LeasePlan plan = requests.plan(command);
    Duration wait = requests.wait(command.maxWait());
    return wait.isZero()
        ? unclaimed.givenBackIfCancelled(leasing.leaseNow(plan))
        : longPoll.await(plan, wait);
  }

  /** Extends every lease a worker holds; answers per lease. */
  public List<HeartbeatResult> heartbeat(
      String workerId, List<LeaseRenewal> renewals, @Nullable Duration leaseTtl) {
    return reports.heartbeat(workerId, renewals, leaseTtl);
  }

  /**
   * {@link #heartbeat}, then, when {@code wait} is positive and every lease was extended, holds the
   * answer for up to {@code wait} (capped at the longest Lease wait): it completes early, woken,
   * when one of this worker's jobs is asked to cancel. Cancelling the future forgets the hold.
   *
   * @throws ValidationException for bad input, at once
   */
  public CompletableFuture<HeldHeartbeat> heartbeat(
      String workerId,
      List<LeaseRenewal> renewals,
      @Nullable Duration leaseTtl,
      @Nullable Duration wait) {
    if (wait == null || wait.isNegative() || wait.isZero() || workerId.isEmpty()) {
      return CompletableFuture.completedFuture(
          new HeldHeartbeat(heartbeat(workerId, renewals, leaseTtl), false));
    }
    return cancelWatch.hold(
        workerId, requests.wait(wait), () -> heartbeat(workerId, renewals, leaseTtl));
  }

  /**
   * Stores a job's result; the future fails with {@code LeaseLostException} for a stale token.
   *
   * @throws ValidationException for a missing job id or worker id, at once
   */
  public CompletableFuture<Job> completeAsync(
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType) {
    return reports.complete(jobId, claim, workerId, result, resultContentType);
  }

  /**
   * Completes many jobs of one worker in one durable write; answers per job, in order.
   *
   * @throws ValidationException for a missing worker id, no completions, too many, or a job named
   *     twice, at once
   */
  public CompletableFuture<List<CompletionOutcome>> completeAll(
      String workerId, List<Completion> items) {
    return reports.completeAll(workerId, items);
  }

  /**
   * {@link #completeAll}, then, once its items are durable, a lease of {@code next} that does not
   * wait: a worker refills the slots of its finished jobs in the same call. A lease that fails then
   * answers no jobs, so the outcomes still reach the worker.
   *
   * @param next its worker id empty or {@code workerId}, its wait null or zero
   * @throws ValidationException for bad items or a bad {@code next} (fields under {@code
   *     lease_next.}), at once, before anything is stored
   */
  public CompletableFuture<CompletionsAndLeases> completeAllThenLease(
      String workerId, List<Completion> items, LeaseCommand next) {
    LeasePlan plan = requests.planNext(workerId, next);
    return store.writeTogether(() -> leasing.leaseAfter(completeAll(workerId, items), plan));
  }

  /** Records a failed attempt; the job is retried later or dead-lettered. */
  public Job fail(long jobId, LeaseClaim claim, String workerId, Failure failure) {
    return reports.fail(jobId, claim, workerId, failure);
  }

  /** Hands a job back without spending an attempt. */
  public Job release(long jobId, LeaseClaim claim, String workerId, String reason) {
    return reports.release(jobId, claim, workerId, reason);
  }

  /**
   * Cancels a pending job, or asks the worker of a running one to stop.
   *
   * @throws JobNotFoundException for an unknown id
   * @throws JobFinishedException for a job that already succeeded, failed or was cancelled
   */
  public Job cancel(long jobId) {
    Job before = get(jobId);
    if (JobLifecycle.cancel(JobStatus.of(before)).isRefused()) {
      throw new JobFinishedException(jobId, before.state());
    }
    Job after = store.cancel(jobId, clock.instant());
    if (after.state() == JobState.SUCCEEDED || after.state() == JobState.FAILED) {
      throw new JobFinishedException(jobId, after.state());
    }
    if (after.state() == JobState.RUNNING && after.lease() != null) {
      cancelWatch.cancelRequested(after.lease().workerId());
    }
    events.onCancelled(after);
    return after;
  }

  /** Notes a job that just entered the dead-letter queue: a WARN, the spike monitor, events. */
  void deadLettered(Job job, Instant now) {
    log.warn(
        "job {} (queue {}, type {}) dead-lettered after {} attempts: {}",
        job.id(),
        job.queue(),
        job.type(),
        job.attempts(),
        job.lastError());
    deadLetterMonitor.record(job, now);
    events.onDeadLettered(job);
  }

  /** The main path of lease expiry, over this scheduler's lease timers. */
  public LeaseExpiryDuty leaseExpiryDuty(RecoveryCounters counters) {
    return new LeaseExpiryDuty(timers, store, leaseTakenBack, counters);
  }

  /** The backup path of lease expiry, which also wakes every waiting Lease call. */
  public BackupSweep backupSweep(RecoveryCounters counters) {
    return new BackupSweep(store, timers, leaseTakenBack, longPoll, counters);
  }

  /**
   * @throws JobNotFoundException if no job has this id
   */
  public Job get(long jobId) {
    return store.get(jobId).orElseThrow(() -> new JobNotFoundException(jobId));
  }

  /** Reads of job dependencies (ListDependencies, depends_on in GetJob and ListJobs). */
  public DependencyReads dependencies() {
    return dependencies;
  }

  /** Checks one Enqueue's or an EnqueueBatch's commands (ValidationException), storing nothing. */
  public void validate(List<EnqueueCommand> commands) {
    validator.validate(commands, clock.instant());
  }

  public JobPage list(JobQuery query) {
    return store.list(query);
  }

  /** The counts per queue that GetStats and the queue listing report. */
  public QueueReports queueReports() {
    return queueReports;
  }

  public DeadLetterMonitor deadLetterMonitor() {
    return deadLetterMonitor;
  }

  Clock clock() {
    return clock;
  }

  void wakeAt(String queue, Instant at) {
    wakeups.wakeAt(queue, at);
  }

  /** Whether the async enqueue, lease and complete never block, so may run on a network thread. */
  public boolean asyncNeverBlocks() {
    return store.asyncWrites().neverBlock();
  }

  /** {@link JobStore#writeAmongOthers}: {@code writes} that should not hold their caller. */
  public <T> T amongOtherWrites(Supplier<T> writes) {
    return store.writeAmongOthers(writes);
  }

  /** Heartbeats held open now, waiting for a cancel. */
  public int heldHeartbeats() {
    return cancelWatch.held();
  }

  /** Lease calls waiting for work now. */
  public int waitingLeaseCalls() {
    return longPoll.waiting();
  }

  JobStore store() {
    return store;
  }

  LongPoll longPoll() {
    return longPoll;
  }

  /** Answers every waiting Lease call with no jobs, so a shutdown need not wait for them. */
  public void releaseWaitingLeaseCalls() {
    longPoll.releaseAll();
    cancelWatch.releaseAll();
  }

  /** Where jobs leased for an answer no worker will read are handed back. */
  public UnclaimedLeases unclaimedLeases() {
    return unclaimed;
  }

  /** Restarts expiry timers for the leases the store holds (after a restart). */
  public void trackStoredLeases() {
    store.runningLeases().forEach(timers::track);
  }

  /** Leases on behalf of waiting calls and takes back what a vanished call cannot receive. */
  private final class StoreLeaser implements LongPoll.Leaser {
    @Override
    public CompletableFuture<List<Job>> lease(LeasePlan plan) {
      return leasing.leaseNow(plan);
    }

    @Override
    public void giveBack(List<Job> jobs) {
      unclaimed.giveBack(jobs);
    }
  }
}
