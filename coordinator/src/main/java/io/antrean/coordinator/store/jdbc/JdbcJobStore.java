package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.Dependency;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseRef;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.RetryPlanner;
import io.antrean.coordinator.store.ScheduleStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;

/**
 * The {@link JobStore} on a JDBC database, written once: every call checks its arguments and runs
 * the shared work of this package on a {@link JdbcSession}. A store says only how work reaches its
 * database, by the kind of work ({@link Runner}s given to the constructor): SQLite runs changes on
 * its single writer thread with group commit and reads on read connections; PostgreSQL on pooled
 * transactions, autocommitted where one statement is the whole change.
 *
 * <p>Thread-safe when the store's four ways of running work are.
 */
public abstract class JdbcJobStore implements JobStore {

  /**
   * One way a store runs work on its database; {@code what} names the work in errors. A generic
   * method, so a store passes a method reference ({@code db::inTransaction}).
   */
  @FunctionalInterface
  protected interface Runner {
    <T> T run(String what, SessionWork<T> work);
  }

  private final AtomicBoolean closed = new AtomicBoolean();
  private final Runner snapshot;
  private final Runner read;
  private final Runner transaction;
  private final Runner autonomous;
  private final Runner settingsRead;
  private final ScheduleStore schedules;

  /**
   * @param snapshot runs a read of several statements that must agree with each other
   * @param read runs a read of one statement
   * @param transaction runs a change of several statements, all or nothing, durable on return
   * @param autonomous runs a change whose statements each stand on their own (one statement, or a
   *     stale report's history entry after a conditional update that changed nothing), durable on
   *     return
   */
  protected JdbcJobStore(Runner snapshot, Runner read, Runner transaction, Runner autonomous) {
    this(snapshot, read, transaction, autonomous, read);
  }

  /**
   * As {@link #JdbcJobStore(Runner, Runner, Runner, Runner)}, with {@code settingsRead} for the
   * reads that touch no job: the schedules', and the queues' pause flags and limits.
   */
  protected JdbcJobStore(
      Runner snapshot, Runner read, Runner transaction, Runner autonomous, Runner settingsRead) {
    this.snapshot = snapshot;
    this.read = read;
    this.transaction = transaction;
    this.autonomous = autonomous;
    this.settingsRead = settingsRead;
    this.schedules = new JdbcScheduleStore(new JdbcScheduleTransactions(settingsRead, transaction));
  }

  @Override
  public ScheduleStore schedules() {
    return schedules;
  }

  private <T> T snapshot(String what, SessionWork<T> work) {
    return snapshot.run(what, work);
  }

  private <T> T read(String what, SessionWork<T> work) {
    return read.run(what, work);
  }

  private <T> T transaction(String what, SessionWork<T> work) {
    return transaction.run(what, work);
  }

  private <T> T autonomous(String what, SessionWork<T> work) {
    return autonomous.run(what, work);
  }

  @Override
  public List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) {
    List<NewJob> batch = JobStoreArguments.forEnqueue(jobs, now);
    if (batch.isEmpty()) {
      return List.of();
    }
    return transaction("enqueue", s -> Dependencies.enqueue(s, batch, now));
  }

  @Override
  public List<Job> lease(LeaseSpec spec, Instant now) {
    JobStoreArguments.forLease(spec, now);
    return autonomous("lease", s -> s.dialect().lease(s, spec, now));
  }

  @Override
  public List<HeartbeatResult> heartbeat(
      String workerId, List<LeaseRenewal> renewals, Instant expiresAt, Instant now) {
    List<LeaseRenewal> batch = JobStoreArguments.forHeartbeat(workerId, renewals, expiresAt, now);
    if (batch.isEmpty()) {
      return List.of();
    }
    return transaction(
        "heartbeat", s -> WorkerWrites.heartbeat(s, workerId, batch, expiresAt, now));
  }

  @Override
  public Job complete(
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now) {
    byte[] copy = JobStoreArguments.forComplete(workerId, result, now);
    Outcome<Job> done =
        autonomous(
            "complete",
            s -> WorkerWrites.complete(s, jobId, claim, workerId, copy, resultContentType, now));
    if (done == null) {
      done =
          transaction(
              "complete",
              s ->
                  WorkerWrites.completeWithDependents(
                      s, jobId, claim, workerId, copy, resultContentType, now));
    }
    return slotFreed(done.orThrow(), now);
  }

  @Override
  public List<CompletionOutcome> completeAll(
      String workerId, List<Completion> completions, Instant now) {
    List<Completion> batch = JobStoreArguments.forCompleteAll(workerId, completions, now);
    if (batch.isEmpty()) {
      return List.of();
    }
    List<CompletionOutcome> outcomes =
        transaction("completeAll", s -> WorkerWrites.completeAll(s, workerId, batch, now));
    slotsFreed(CompletionOutcome.queuesOf(outcomes), now);
    return outcomes;
  }

  @Override
  public Job fail(
      long jobId,
      LeaseClaim claim,
      String workerId,
      Failure failure,
      RetryPlanner planner,
      Instant now) {
    JobStoreArguments.forFail(workerId, failure, planner, now);
    return slotFreed(
        transaction(
                "fail", s -> WorkerWrites.fail(s, jobId, claim, workerId, failure, planner, now))
            .orThrow(),
        now);
  }

  @Override
  public Job release(long jobId, LeaseClaim claim, String workerId, String reason, Instant now) {
    JobStoreArguments.forRelease(workerId, reason, now);
    return slotFreed(
        transaction("release", s -> WorkerWrites.release(s, jobId, claim, workerId, reason, now))
            .orThrow(),
        now);
  }

  @Override
  public Optional<Job> expireLease(long jobId, long fencingToken, Instant now) {
    Objects.requireNonNull(now, "now");
    Optional<Job> taken =
        transaction("expireLease", s -> LeaseWrites.expireLease(s, jobId, fencingToken, now));
    taken.ifPresent(job -> slotFreed(job, now));
    return taken;
  }

  @Override
  public List<Job> expireLeases(Instant now, int limit) {
    JobStoreArguments.forExpireLeases(now, limit);
    List<Job> taken = transaction("expireLeases", s -> LeaseWrites.expireLeases(s, now, limit));
    slotsFreed(taken.stream().map(Job::queue).toList(), now);
    return taken;
  }

  @Override
  public Job cancel(long jobId, Instant now) {
    Objects.requireNonNull(now, "now");
    return transaction("cancel", s -> ProducerWrites.cancel(s, jobId, now));
  }

  @Override
  public Optional<Job> get(long jobId) {
    return snapshot("get job", s -> JobReads.get(s, jobId));
  }

  @Override
  public JobPage list(JobQuery query) {
    Objects.requireNonNull(query, "query");
    return snapshot("list jobs", s -> JobReads.list(s, query));
  }

  @Override
  public List<Dependency> dependencies(long jobId) {
    return read("list dependencies", s -> Dependencies.list(s, jobId));
  }

  @Override
  public Map<Long, DependsOn> dependsOn(Collection<Long> jobIds) {
    List<Long> ids = List.copyOf(jobIds);
    return read("read dependencies", s -> Dependencies.of(s, ids));
  }

  @Override
  public List<QueueCounts> stats(@Nullable String queue, Instant now) {
    Objects.requireNonNull(now, "now");
    return read("read stats", s -> s.dialect().stats(s, queue, now, false));
  }

  @Override
  public List<QueueCounts> unfinishedStats(@Nullable String queue, Instant now) {
    Objects.requireNonNull(now, "now");
    return read("read unfinished stats", s -> s.dialect().stats(s, queue, now, true));
  }

  @Override
  public void setQueuePaused(String queue, boolean paused, Instant now) {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(now, "now");
    transaction(
        paused ? "pause queue" : "resume queue",
        s -> QueueControlRows.setPaused(s, queue, paused, now));
  }

  @Override
  public SortedMap<String, Instant> pausedQueues() {
    return settingsRead.run("list paused queues", QueueControlRows::paused);
  }

  @Override
  public void setQueueLimits(String queue, QueueLimits limits) {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(limits, "limits");
    transaction(
        "set queue limits",
        s -> {
          QueueRows.setLimits(s, queue, limits);
          // Waiting Lease calls look again: a raised or removed limit may free jobs.
          s.jobsReady(queue);
          return null;
        });
    limitsSet(queue, limits);
  }

  @Override
  public SortedMap<String, QueueLimits> queueLimits() {
    return settingsRead.run("list queue limits", QueueRows::limited);
  }

  @Override
  public SortedMap<String, Long> jobsHeldByLimits(Instant now) {
    Objects.requireNonNull(now, "now");
    return snapshot("count jobs held by limits", s -> HeldJobs.count(s, now));
  }

  @Override
  public List<LeaseRef> runningLeases() {
    return read("list running leases", JobReads::runningLeases);
  }

  @Override
  public JobPage listDeadLetters(DeadLetterQuery query) {
    Objects.requireNonNull(query, "query");
    return snapshot("list dead letters", s -> DeadLetterQueue.list(s, query));
  }

  @Override
  public List<Job> redrive(List<Long> jobIds, Instant firstRunAt, Duration spacing, Instant now) {
    List<Long> ids = JobStoreArguments.forRedrive(jobIds, firstRunAt, spacing, now);
    if (ids.isEmpty()) {
      return List.of();
    }
    return transaction("redrive", s -> DeadLetterQueue.redrive(s, ids, firstRunAt, spacing, now));
  }

  @Override
  public int purgeDeadLetters(List<Long> jobIds) {
    List<Long> ids = List.copyOf(jobIds);
    if (ids.isEmpty()) {
      return 0;
    }
    return autonomous("purge dead letters", s -> DeadLetterQueue.purge(s, ids));
  }

  @Override
  public int deleteFinished(JobState state, Instant finishedBefore, int limit) {
    JobStoreArguments.forDeleteFinished(state, finishedBefore, limit);
    return autonomous(
        "delete finished jobs",
        s -> RetentionWrites.deleteFinished(s, state, finishedBefore, limit));
  }

  @Override
  public int forgetExpiredIdempotencyKeys(Instant now, int limit) {
    JobStoreArguments.forForgetExpiredIdempotencyKeys(now, limit);
    return autonomous(
        "forget expired idempotency keys", s -> RetentionWrites.forgetExpiredKeys(s, now, limit));
  }

  @Override
  public List<DeadLetterGroup> deadLetteredSince(Instant since) {
    Objects.requireNonNull(since, "since");
    return read("count dead letters", s -> DeadLetterQueue.groupsSince(s, since));
  }

  /**
   * Releases what the store holds ({@link #release}), once. Later calls throw {@link
   * io.antrean.coordinator.store.StoreUnavailableException}. Idempotent.
   */
  @Override
  public final void close() {
    if (closed.compareAndSet(false, true)) {
      release();
    }
  }

  /**
   * A job that ran has stopped running; returns it, for chaining. See {@link #slotsFreed}.
   *
   * @param job the job as the change left it
   */
  protected final Job slotFreed(Job job, Instant now) {
    slotsFreed(List.of(job.queue()), now);
    return job;
  }

  /**
   * Jobs that ran have stopped running (completed, failed, released or taken back), named by their
   * queues, one entry per job: in a queue with limits each frees a slot for a job the limits held
   * back, so a store tells the Lease calls waiting on that queue. By default nothing: a queue
   * without limits pays nothing.
   */
  protected void slotsFreed(List<String> queues, Instant now) {}

  /** This store has just committed new limits for the queue ({@link QueueLimits#NONE}: none). */
  protected void limitsSet(String queue, QueueLimits limits) {}

  /** Whether {@link #close} was called. */
  protected final boolean isClosed() {
    return closed.get();
  }

  /** Lets the work in flight finish, then closes the store's connections; called once. */
  protected abstract void release();
}
