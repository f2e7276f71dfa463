package io.antrean.coordinator.store;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;

/**
 * The storage SPI: the durable pending list, the lease table and the attempt history.
 *
 * <p>Contract for every implementation (checked by {@code JobStoreContract}):
 *
 * <ul>
 *   <li>Time is a parameter. A store never reads a clock; every decision uses the {@code now} it is
 *       given, so tests drive it with a fake clock.
 *   <li>A method that returns normally has made its change durable (for SQLite: fsynced, possibly
 *       together with other callers' changes in one group commit).
 *   <li>State changes are atomic and, for a running job, conditioned on the fencing token: a stale
 *       token changes nothing but the job's history and raises {@link LeaseLostException}; a worker
 *       repeating its own accepted Complete or Fail gets the same answer again, recorded once.
 *   <li>Returned jobs are snapshots; changing them never changes the store. Only {@link #get} fills
 *       in the attempt history; every other method returns jobs with an empty history.
 *   <li>Times are kept with microsecond precision: finer digits are dropped (truncated towards the
 *       past) on the way in, so a time reads back as the microsecond it fell in.
 *   <li>A job whose cancellation was requested never returns to PENDING: where a failure, a release
 *       or a lease expiry would put it back, it becomes CANCELLED instead (a failure without a
 *       retry still dead-letters it as FAILED).
 *   <li>After {@link #close} every method throws {@link StoreUnavailableException}.
 * </ul>
 *
 * <p>The {@code ...Async} forms of the hot calls (enqueue, lease, complete) do the same work and
 * keep the same contract; their future completes when the change is durable. The defaults here run
 * the synchronous form on the caller's thread; {@link #asyncWrites()} says how a store's own forms
 * reach it. Callbacks on the futures must not block on the store.
 *
 * <p>Implementations are thread-safe.
 */
public interface JobStore extends DeadLetterStore, AutoCloseable {

  /**
   * Stores the jobs, all or none. A job whose idempotency key is remembered in its queue (its
   * expiry is after {@code now}, and the job it points to was not deleted by {@link
   * #deleteFinished} or {@link #purgeDeadLetters}) is not stored again: its result is the existing
   * job, flagged as deduplicated. A forgotten key is taken over by the new job.
   *
   * <p>A job with a unique key ({@link io.antrean.coordinator.job.UniqueKey}) is not stored while a
   * PENDING or RUNNING job of its queue (an earlier job of the same call included) holds that key:
   * its result is that job, flagged as deduplicated, if it asked for it back; else the call throws.
   * Exact under many processes sharing the store.
   *
   * <p>A job with dependencies ({@link NewJob#dependsOn}) is WAITING until all SUCCEEDED (then
   * PENDING, in that change); one ending FAILED or CANCELLED applies its policy, down the chain.
   *
   * @return one result per job, in order
   * @throws JobNotFoundException if a dependency does not exist; nothing is stored
   * @throws IdempotencyConflictException if a remembered key was used with a different type or
   *     payload; nothing is stored
   * @throws UniqueKeyConflictException if an active job holds a job's unique key and that job asked
   *     to be refused; nothing is stored
   */
  List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now);

  /**
   * Leases up to {@code spec.maxJobs()} pending jobs of one queue whose run time has passed,
   * highest priority first, then by run time, then by id. Each leased job is RUNNING, its attempts
   * counter is one higher, it has a new fencing token and a new random {@link
   * io.antrean.coordinator.job.LeaseId} (its text is on the returned jobs only; the store keeps its
   * digest), and its history has a new {@code RUNNING} entry.
   *
   * <p>A paused queue (see {@link #setQueuePaused}) leases nothing: the answer is empty however
   * many of its jobs are ready. The pause is checked inside the same atomic change as the lease.
   *
   * <p>A queue with limits (see {@link #setQueueLimits}) leases only as many jobs as keep its
   * RUNNING jobs within {@link QueueLimits#maxRunning}, and passes over a job whose concurrency key
   * already has {@link QueueLimits#maxRunningPerKey} RUNNING jobs (it stays PENDING, its attempts
   * untouched, and a later job with another key may be leased before it). Exact with every process
   * sharing the store: the counts and the lease are one atomic change, serialised with the other
   * leases of that queue.
   *
   * @return the leased jobs in that order; empty if none is ready or the queue is paused
   */
  List<Job> lease(LeaseSpec spec, Instant now);

  /**
   * Extends the leases a worker presents until {@code expiresAt} and stores their progress notes. A
   * lease is renewed while its job is RUNNING under its token, even if it expired and was not taken
   * back yet. Never throws for a stale lease: that lease's answer is {@link
   * HeartbeatResult.Status#LOST}, and an existing job gets a {@code STALE_COMPLETION_REJECTED}
   * history entry, as for the other calls with a stale token.
   *
   * @return one result per renewal, in order
   */
  List<HeartbeatResult> heartbeat(
      String workerId, List<LeaseRenewal> renewals, Instant expiresAt, Instant now);

  /**
   * Marks the job SUCCEEDED with its result.
   *
   * <p>A repeat of the holder's own accepted completion (same worker, same token, same result and
   * content type, same lease id: its first answer was lost) is answered with the job as it stands
   * and changes nothing, not even the history; so its {@code updatedAt} is still the first
   * completion's time.
   *
   * @throws JobNotFoundException if no job has this id
   * @throws LeaseLostException if the claim is not the current lease's (token, lease id, worker)
   *     and the call is no such repeat
   */
  Job complete(
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now);

  /**
   * {@link #complete} for many jobs of one worker in one durable change. Each completion is judged
   * on its own, exactly as {@code complete} would judge it, in order; one that is stale or unknown
   * does not hold back the others. The completions name distinct jobs.
   *
   * @return one outcome per completion, in order
   */
  List<CompletionOutcome> completeAll(String workerId, List<Completion> completions, Instant now);

  /** {@link #enqueue}, answered through a future. */
  default CompletableFuture<List<EnqueueResult>> enqueueAsync(List<NewJob> jobs, Instant now) {
    return StoreFutures.now(() -> enqueue(jobs, now));
  }

  /** {@link #lease}, answered through a future. */
  default CompletableFuture<List<Job>> leaseAsync(LeaseSpec spec, Instant now) {
    return StoreFutures.now(() -> lease(spec, now));
  }

  /** {@link #complete}, answered through a future that fails as {@code complete} would throw. */
  default CompletableFuture<Job> completeAsync(
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now) {
    return StoreFutures.now(() -> complete(jobId, claim, workerId, result, resultContentType, now));
  }

  /** {@link #completeAll}, answered through a future. */
  default CompletableFuture<List<CompletionOutcome>> completeAllAsync(
      String workerId, List<Completion> completions, Instant now) {
    return StoreFutures.now(() -> completeAll(workerId, completions, now));
  }

  /** How the {@code ...Async} writes reach this store; on the caller's thread by default. */
  default AsyncWrites asyncWrites() {
    return AsyncWrites.ON_CALLERS_THREAD;
  }

  /**
   * Runs {@code submissions}; a store that {@link #commitsTogether} commits the {@code ...Async}
   * writes made inside it on this thread together, in the order made, each seeing those before it
   * and each still failing on its own. Their futures complete once that change is durable; inside,
   * they are not yet complete.
   */
  default <T> T writeTogether(Supplier<T> submissions) {
    return submissions.get();
  }

  /**
   * Runs {@code submissions}, {@code ...Async} writes that should not hold their caller's thread:
   * those of a caller that has more of them in flight and sends the next ones at once (a producer
   * pipelining its Enqueues on one stream), or one large enough that handing it over costs less
   * than holding the thread (a busy worker's CompleteBatch). A store that runs a write on its
   * caller's thread when nothing else is being written queues these instead, so the caller's thread
   * goes back at once to reading what follows.
   */
  default <T> T writeAmongOthers(Supplier<T> submissions) {
    return submissions.get();
  }

  /**
   * Whether {@link #writeTogether} commits the writes made inside it as one change; if not, it only
   * runs them, each as it would run anyway.
   */
  default boolean commitsTogether() {
    return false;
  }

  /**
   * Records a failed attempt. The planner decides, from the job as it stands inside the same atomic
   * change, whether and when it runs again: PENDING at that time (at the tail of its priority), or
   * FAILED. {@code last_error} becomes "errorType: message" (or whichever of the two is set). A job
   * whose cancellation was requested is CANCELLED instead of retried. If the planner throws,
   * nothing changes and its exception reaches the caller.
   *
   * <p>A repeat of the holder's own accepted failure of this lease (same worker, same token, same
   * kind, error type and message: its first answer was lost) is answered with the job as it stands,
   * which may have moved on since, and changes nothing, not even the history.
   *
   * @throws JobNotFoundException if no job has this id
   * @throws LeaseLostException if the claim is not the current lease's (token, lease id, worker)
   */
  Job fail(
      long jobId,
      LeaseClaim claim,
      String workerId,
      Failure failure,
      RetryPlanner planner,
      Instant now);

  /**
   * Hands a running job back without spending an attempt: PENDING at once, keeping its place, or
   * CANCELLED if a cancellation was requested meanwhile.
   *
   * @throws JobNotFoundException if no job has this id
   * @throws LeaseLostException if the claim is not the current lease's (token, lease id, worker)
   */
  Job release(long jobId, LeaseClaim claim, String workerId, String reason, Instant now);

  /**
   * The timer path of lease expiry: if the job still runs under this token and its lease expired at
   * or before {@code now}, takes it back (see {@link #expireLeases}). Otherwise does nothing.
   *
   * @return the job after the change, or empty if nothing changed
   */
  Optional<Job> expireLease(long jobId, long fencingToken, Instant now);

  /**
   * The sweep path of lease expiry: takes back up to {@code limit} running jobs whose lease expired
   * at or before {@code now}, the longest expired first. Each goes to PENDING at the tail (run time
   * {@code now}), or to FAILED with last error "lease expired" once its lease expiries reach its
   * policy's {@code maxLeaseExpiries}, or to CANCELLED if its cancellation was requested; its
   * history entry ends as {@code LEASE_EXPIRED}.
   *
   * @param limit at least 1
   * @return the jobs taken back, after the change
   */
  List<Job> expireLeases(Instant now, int limit);

  /**
   * Asks for a job to be cancelled: a PENDING or WAITING job is CANCELLED at once; a RUNNING job is
   * flagged for its worker's next heartbeat; a finished job is left as it is.
   *
   * @throws JobNotFoundException if no job has this id
   * @return the job after the change
   */
  Job cancel(long jobId, Instant now);

  /** The jobs a job depends on, ascending by id, as they stand (deleted ones left out). */
  List<Dependency> dependencies(long jobId);

  /** What each of the given jobs depends on, for those that depend on any; by job id, a new map. */
  Map<Long, DependsOn> dependsOn(Collection<Long> jobIds);

  /** One job with its attempt history, or empty. */
  Optional<Job> get(long jobId);

  /** Jobs matching the query, newest id first, without history. */
  JobPage list(JobQuery query);

  /**
   * Counts per queue that has jobs, ordered by queue name, as of {@code now}. When {@code queue} is
   * not null, only that queue, answered with zeros if it has no jobs.
   */
  List<QueueCounts> stats(@Nullable String queue, Instant now);

  /**
   * As {@link #stats}, counting only the jobs not yet finished (PENDING, RUNNING and WAITING): each
   * queue's succeeded, failed and cancelled are zero, and when {@code queue} is null only the
   * queues that hold such a job are listed. For one queue, what it costs does not grow with the
   * finished jobs the store keeps, which {@link #stats} may read one by one.
   */
  List<QueueCounts> unfinishedStats(@Nullable String queue, Instant now);

  /**
   * Pauses or resumes a queue, durably. A paused queue still accepts jobs but {@link #lease} takes
   * none of them; jobs already running are not affected. A queue that has no jobs may be paused,
   * and the pause holds for the jobs that come later. Idempotent: pausing a paused queue keeps its
   * original pause time, resuming a queue that is not paused does nothing. A store shared by many
   * processes makes the change visible to all of them, and wakes their waiters on resume (see
   * {@link #subscribeJobsReady}).
   *
   * @param queue a valid queue name (the caller validates it)
   * @param now the pause time recorded when the queue becomes paused
   */
  void setQueuePaused(String queue, boolean paused, Instant now);

  /**
   * Fails if this store knows that no write of it can succeed now (SQLite after a failed fsync,
   * which only reopening the store mends); cheap, for a readiness check. The default knows nothing
   * of the kind: a store whose writes fail one by one says so in their answers.
   *
   * @throws StoreUnavailableException saying why
   */
  default void requireWritable() {}

  /** The paused queues with the time each was paused, ordered by queue name; a new map. */
  SortedMap<String, Instant> pausedQueues();

  /**
   * Sets a queue's concurrency limits, durably, replacing the ones it had; {@link QueueLimits#NONE}
   * removes them. Jobs already running are not affected: a lower limit only holds back new leases
   * until enough of them finish. A store shared by many processes makes the change visible to all
   * of them; one that caches which queues have limits may take up to a second to see a new limit
   * elsewhere, and leases nothing in such a queue meanwhile rather than exceed it.
   *
   * @param queue a valid queue name (the caller validates it)
   */
  void setQueueLimits(String queue, QueueLimits limits);

  /** The queues that have any limit, ordered by queue name; a new map. */
  SortedMap<String, QueueLimits> queueLimits();

  /**
   * For each queue that has limits, how many of its ready PENDING jobs (run time at or before
   * {@code now}) the limits hold back as of {@code now}: all of them while the queue is at its
   * {@code maxRunning} or its rate bucket is empty, else those whose concurrency key is at its cap
   * or has an empty bucket. Read without locks, for metrics. Ordered by queue name; a new map.
   */
  SortedMap<String, Long> jobsHeldByLimits(Instant now);

  /**
   * Every lease currently held (also those expired but not yet taken back), for rebuilding expiry
   * timers after a restart.
   */
  List<LeaseRef> runningLeases();

  /**
   * Retention: deletes up to {@code limit} jobs in the terminal {@code state} that finished before
   * {@code finishedBefore}, the longest finished first, with their history. An idempotency key of a
   * deleted job no longer deduplicates: enqueueing with it stores a new job, as if the key had
   * expired (a store may drop the key together with the job or leave it to {@link
   * #forgetExpiredIdempotencyKeys}).
   *
   * @param limit at least 1
   * @return how many jobs were deleted; fewer than {@code limit} means none is left to delete
   * @throws IllegalArgumentException if {@code state} is not terminal
   */
  int deleteFinished(JobState state, Instant finishedBefore, int limit);

  /**
   * Deletes up to {@code limit} idempotency keys whose expiry is at or before {@code now} (keys
   * that {@link #enqueue} already treats as free), so the key table stays bounded.
   *
   * @param limit at least 1
   * @return how many keys were deleted; fewer than {@code limit} means none is left to delete
   */
  int forgetExpiredIdempotencyKeys(Instant now, int limit);

  /**
   * Subscribes to wake-ups from other processes: {@code queueListener} is called with a queue name
   * whenever jobs may have become ready in that queue through ANOTHER process sharing this store
   * (another coordinator enqueued, released, redrove or took back an expired lease). A store may
   * also report its own changes, and may report a queue where nothing is ready after all: a call is
   * a hint to look, never a promise. Delivery is best effort: a wake-up can be lost (say, while the
   * store reconnects), which the coordinator's periodic backup sweep covers.
   *
   * <p>Listeners run on a thread of the store; they must be quick and must not block (hand the
   * queue name to another thread). An exception thrown by a listener is logged and ignored. There
   * is no unsubscribe: listeners live as long as the store.
   *
   * <p>The default does nothing, which is right for a store that only one process uses (SQLite:
   * every change comes through the one coordinator, which wakes its own long-polls).
   */
  default void subscribeJobsReady(Consumer<String> queueListener) {}

  /**
   * Adds a listener told (queue, instant) when one of this process's leases found jobs held back by
   * a rate limit whose bucket has its next token at that instant, so the Lease calls waiting on the
   * queue can look again exactly then. Stores without rate limits never call it.
   */
  default void subscribeTokenWakeups(BiConsumer<String, Instant> listener) {}

  /**
   * The store's durable schedules, kept in the same database so that a schedule's fire and the jobs
   * it enqueues commit together. The same object on every call; closed with the store.
   */
  ScheduleStore schedules();

  /**
   * Releases the store's resources; calls already accepted finish first. A closed store answers
   * nothing: later calls throw {@link StoreUnavailableException}. Idempotent.
   */
  @Override
  void close();
}
