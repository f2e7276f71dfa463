package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseRef;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.RetryPlanner;
import io.antrean.coordinator.store.ScheduleStore;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.JdbcScheduleStore;
import io.antrean.coordinator.store.jdbc.JobStoreArguments;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scale-out {@link JobStore}: one PostgreSQL database shared by any number of coordinators.
 *
 * <p>Every operation is correct with other coordinators (other processes) calling at the same time:
 * leases and the expiry sweep pick rows with {@code FOR UPDATE SKIP LOCKED}, every change to a
 * running job is conditioned on its fencing token, idempotency keys are a primary key the database
 * enforces, and job ids come from one sequence, so they are unique across coordinators and never
 * reused. Decisions use the {@code now} passed in, never the server's clock. A call that returns
 * has committed with {@code synchronous_commit} on. Changes that may make jobs ready issue {@code
 * NOTIFY antrean_jobs_ready, '<queue>'} in their transaction; see {@link #subscribeJobsReady}.
 *
 * <p>Connections come from a HikariCP pool of {@link PostgresOptions#poolSize()}; the schema is
 * migrated with Flyway at open. Thread-safe.
 */
public final class PostgresJobStore implements JobStore {
  private static final Logger log = LoggerFactory.getLogger(PostgresJobStore.class);

  private final PostgresOptions options;
  private final PooledTransactions db;
  private final JobsReadyListener jobsReady;
  private final ScheduleStore schedules;
  private final AtomicBoolean closed = new AtomicBoolean();

  private PostgresJobStore(PostgresOptions options, PooledTransactions db) {
    this.options = options;
    this.db = db;
    this.jobsReady = new JobsReadyListener(options);
    this.schedules = new JdbcScheduleStore(new PostgresScheduleTransactions(db));
  }

  /**
   * Connects, brings the schema up to date and returns the open store. Close it to release the pool
   * and the listener connection.
   *
   * @throws StoreUnavailableException if the database cannot be reached or migrated
   */
  public static PostgresJobStore open(PostgresOptions options) {
    Objects.requireNonNull(options, "options");
    PooledTransactions db = PooledTransactions.open(options);
    try {
      PostgresSchema.migrate(options);
    } catch (RuntimeException e) {
      db.close();
      throw new StoreUnavailableException(
          "migrating the schema "
              + options.schema()
              + " at "
              + options.redactedUrl()
              + " failed: "
              + e.getMessage(),
          e);
    }
    log.info("PostgreSQL job store open: {}", options);
    return new PostgresJobStore(options, db);
  }

  @Override
  public List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) {
    List<NewJob> batch = JobStoreArguments.forEnqueue(jobs, now);
    if (batch.isEmpty()) {
      return List.of();
    }
    if (batch.size() == 1
        && batch.get(0).idempotencyKey() == null
        && batch.get(0).uniqueKey() == null) {
      // The common unary Enqueue: one statement, committed on its own.
      NewJob job = batch.get(0);
      EnqueueResult stored =
          db.autoCommitted("enqueue", tx -> ProducerWrites.enqueueOnePlain(tx, job, now));
      return List.of(stored);
    }
    return db.inTransaction("enqueue", tx -> ProducerWrites.enqueue(tx, batch, now));
  }

  @Override
  public List<Job> lease(LeaseSpec spec, Instant now) {
    JobStoreArguments.forLease(spec, now);
    return db.autoCommitted("lease", tx -> LeaseWrites.lease(tx, spec, now));
  }

  @Override
  public List<HeartbeatResult> heartbeat(
      String workerId, List<LeaseRenewal> renewals, Instant expiresAt, Instant now) {
    List<LeaseRenewal> batch = JobStoreArguments.forHeartbeat(workerId, renewals, expiresAt, now);
    if (batch.isEmpty()) {
      return List.of();
    }
    return db.inTransaction(
        "heartbeat", tx -> WorkerWrites.heartbeat(tx, workerId, batch, expiresAt, now));
  }

  @Override
  public Job complete(
      long jobId,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now) {
    byte[] copy = JobStoreArguments.forComplete(workerId, result, now);
    return db.autoCommitted(
            "complete",
            tx ->
                WorkerWrites.complete(
                    tx, jobId, fencingToken, workerId, copy, resultContentType, now))
        .orThrow();
  }

  @Override
  public List<CompletionOutcome> completeAll(
      String workerId, List<Completion> completions, Instant now) {
    List<Completion> batch = JobStoreArguments.forCompleteAll(workerId, completions, now);
    if (batch.isEmpty()) {
      return List.of();
    }
    return db.inTransaction(
        "completeAll", tx -> WorkerWrites.completeAll(tx, workerId, batch, now));
  }

  @Override
  public Job fail(
      long jobId,
      long fencingToken,
      String workerId,
      Failure failure,
      RetryPlanner planner,
      Instant now) {
    JobStoreArguments.forFail(workerId, failure, planner, now);
    return db.inTransaction(
            "fail",
            tx -> WorkerWrites.fail(tx, jobId, fencingToken, workerId, failure, planner, now))
        .orThrow();
  }

  @Override
  public Job release(long jobId, long fencingToken, String workerId, String reason, Instant now) {
    JobStoreArguments.forRelease(workerId, reason, now);
    return db.inTransaction(
            "release", tx -> WorkerWrites.release(tx, jobId, fencingToken, workerId, reason, now))
        .orThrow();
  }

  @Override
  public Optional<Job> expireLease(long jobId, long fencingToken, Instant now) {
    Objects.requireNonNull(now, "now");
    return db.inTransaction(
        "expireLease", tx -> LeaseWrites.expireLease(tx, jobId, fencingToken, now));
  }

  @Override
  public List<Job> expireLeases(Instant now, int limit) {
    JobStoreArguments.forExpireLeases(now, limit);
    return db.inTransaction("expireLeases", tx -> LeaseWrites.expireLeases(tx, now, limit));
  }

  @Override
  public Job cancel(long jobId, Instant now) {
    Objects.requireNonNull(now, "now");
    return db.inTransaction("cancel", tx -> ProducerWrites.cancel(tx, jobId, now));
  }

  @Override
  public Optional<Job> get(long jobId) {
    return db.inSnapshot("get job", tx -> JobReads.get(tx, jobId));
  }

  @Override
  public JobPage list(JobQuery query) {
    Objects.requireNonNull(query, "query");
    return db.autoCommitted("list jobs", tx -> JobReads.list(tx, query));
  }

  @Override
  public List<QueueCounts> stats(@Nullable String queue, Instant now) {
    Objects.requireNonNull(now, "now");
    return db.autoCommitted("read stats", tx -> JobReads.stats(tx, queue, now));
  }

  @Override
  public void setQueuePaused(String queue, boolean paused, Instant now) {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(now, "now");
    db.inTransaction(
        paused ? "pause queue" : "resume queue",
        tx -> QueueControlRows.setPaused(tx, queue, paused, now));
  }

  @Override
  public SortedMap<String, Instant> pausedQueues() {
    return db.autoCommitted("list paused queues", QueueControlRows::paused);
  }

  @Override
  public List<LeaseRef> runningLeases() {
    return db.autoCommitted("list running leases", JobReads::runningLeases);
  }

  @Override
  public JobPage listDeadLetters(DeadLetterQuery query) {
    Objects.requireNonNull(query, "query");
    return db.autoCommitted("list dead letters", tx -> DeadLetterQueue.list(tx, query));
  }

  @Override
  public List<Job> redrive(List<Long> jobIds, Instant firstRunAt, Duration spacing, Instant now) {
    List<Long> ids = JobStoreArguments.forRedrive(jobIds, firstRunAt, spacing, now);
    if (ids.isEmpty()) {
      return List.of();
    }
    return db.inTransaction(
        "redrive", tx -> DeadLetterQueue.redrive(tx, ids, firstRunAt, spacing, now));
  }

  @Override
  public int purgeDeadLetters(List<Long> jobIds) {
    List<Long> ids = List.copyOf(jobIds);
    if (ids.isEmpty()) {
      return 0;
    }
    return db.autoCommitted("purge dead letters", tx -> DeadLetterQueue.purge(tx, ids));
  }

  @Override
  public int deleteFinished(JobState state, Instant finishedBefore, int limit) {
    JobStoreArguments.forDeleteFinished(state, finishedBefore, limit);
    return db.autoCommitted(
        "delete finished jobs",
        tx -> RetentionWrites.deleteFinished(tx, state, finishedBefore, limit));
  }

  @Override
  public int forgetExpiredIdempotencyKeys(Instant now, int limit) {
    JobStoreArguments.forForgetExpiredIdempotencyKeys(now, limit);
    return db.autoCommitted(
        "forget expired idempotency keys", tx -> RetentionWrites.forgetExpiredKeys(tx, now, limit));
  }

  @Override
  public List<DeadLetterGroup> deadLetteredSince(Instant since) {
    Objects.requireNonNull(since, "since");
    return db.autoCommitted("count dead letters", tx -> DeadLetterQueue.groupsSince(tx, since));
  }

  /**
   * Calls {@code queueListener} with the queue named by every {@code antrean_jobs_ready}
   * notification on the database: from other coordinators, and from this store's own changes too (a
   * harmless extra wake-up). The first subscription opens a dedicated listening connection outside
   * the pool, on a daemon thread that reconnects with backoff after a failure. Notifications sent
   * while it is disconnected are lost; the coordinator's periodic backup sweep finds those jobs.
   * Listeners run on that thread and must not block.
   */
  @Override
  public void subscribeJobsReady(Consumer<String> queueListener) {
    Objects.requireNonNull(queueListener, "queueListener");
    if (closed.get()) {
      throw new StoreUnavailableException("the PostgreSQL job store is closed", null);
    }
    jobsReady.subscribe(queueListener);
  }

  /**
   * Stops the listener, lets calls in flight finish (HikariCP waits a few seconds for connections
   * in use), and closes the pool. Later calls throw {@link StoreUnavailableException}. Idempotent.
   */
  @Override
  public ScheduleStore schedules() {
    return schedules;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    jobsReady.close();
    db.close();
    log.info("PostgreSQL job store at {} closed", options.redactedUrl());
  }

  /** The pool, for tests that look at the database through the store's own connections. */
  PooledTransactions transactions() {
    return db;
  }

  /** Waits until the jobs-ready listener is in place, for tests. */
  boolean awaitListening(Duration timeout) throws InterruptedException {
    return jobsReady.awaitListening(timeout);
  }
}
