package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.StoreFutures;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.JdbcJobStore;
import io.antrean.coordinator.store.jdbc.JobStoreArguments;
import io.antrean.coordinator.store.jdbc.LimitedLeases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
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
 * has committed with {@code synchronous_commit} on. Changes that may make jobs ready are followed,
 * once committed, by {@code NOTIFY antrean_jobs_ready, '<queue>'} in a transaction of its own
 * ({@link JobsReadyAnnouncer}); see {@link #subscribeJobsReady}.
 *
 * <p>Connections come from a HikariCP pool of {@link PostgresOptions#poolSize()}; the schema is
 * migrated with Flyway at open. A timer keeps the planner's statistics of the jobs table current
 * ({@link PlannerStatistics}). Thread-safe.
 */
public final class PostgresJobStore extends JdbcJobStore {
  private static final Logger log = LoggerFactory.getLogger(PostgresJobStore.class);
  private static final int MAX_ENQUEUE_GROUP = 100;

  private final PostgresOptions options;
  private final PooledTransactions db;
  private final JobsReadyListener jobsReady;
  private final ListenerCensus census;
  private final LimitedQueues limitedQueues;
  private final GroupedInserts<Submitted, EnqueueResult> plainEnqueues;
  private final ExecutorService enqueueDrainer =
      Executors.newSingleThreadExecutor(daemon("antrean-postgres-enqueue-groups"));
  private final ScheduledExecutorService statisticsTimer =
      Executors.newSingleThreadScheduledExecutor(daemon("antrean-postgres-statistics"));

  /** The writes of a {@link #writeTogether} running on this thread, if one is. */
  private final ThreadLocal<WritesTogether> together = new ThreadLocal<>();

  /** One job without keys or dependencies, and the instant its Enqueue was received. */
  private record Submitted(NewJob job, Instant now) {}

  private PostgresJobStore(
      PostgresOptions options,
      PooledTransactions db,
      JobsReadyListener jobsReady,
      ListenerCensus census) {
    super(db::inSnapshot, db::autoCommitted, db::inTransaction, db::autoCommitted);
    this.options = options;
    this.db = db;
    this.jobsReady = jobsReady;
    this.census = census;
    this.limitedQueues = new LimitedQueues(db);
    // A refused statement rolls the group back; anything else may have committed it.
    this.plainEnqueues =
        new GroupedInserts<>(
            this::writeGroup,
            e -> !(e instanceof StoreUnavailableException),
            groupWriters(options.poolSize()),
            MAX_ENQUEUE_GROUP,
            enqueueDrainer);
    PlannerStatistics statistics = new PlannerStatistics(db);
    statisticsTimer.scheduleWithFixedDelay(
        statistics::runScheduled,
        PlannerStatistics.INTERVAL_MILLIS,
        PlannerStatistics.INTERVAL_MILLIS,
        TimeUnit.MILLISECONDS);
  }

  private static ThreadFactory daemon(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * A third of the pool writes Enqueue groups at most, so leases and completions find connections.
   */
  static int groupWriters(int poolSize) {
    return Math.max(1, poolSize / 3);
  }

  /**
   * Connects, brings the schema up to date and returns the open store. Close it to release the pool
   * and the listener connection.
   *
   * @throws StoreUnavailableException if the database cannot be reached or migrated
   */
  public static PostgresJobStore open(PostgresOptions options) {
    Objects.requireNonNull(options, "options");
    ListenerCensus census = new ListenerCensus(options.schema());
    JobsReadyListener jobsReady = new JobsReadyListener(options, census);
    PooledTransactions db = PooledTransactions.open(options, census, jobsReady::dispatchHere);
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
    return new PostgresJobStore(options, db, jobsReady, census);
  }

  /**
   * The common unary Enqueue, one job without keys or dependencies, goes into a group with the
   * Enqueues that arrive while others are being written ({@link GroupedInserts}): one round trip
   * and one commit for the group; alone, it is one statement committed on its own.
   */
  @Override
  public List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) {
    return StoreFutures.join(store(JobStoreArguments.forEnqueue(jobs, now), now));
  }

  /**
   * As {@link #enqueue}; a unary Enqueue left to a group another call is writing returns at once,
   * and its future completes on that call's thread when the group commits. Inside {@link
   * #writeTogether} the jobs are kept for that transaction instead.
   */
  @Override
  public CompletableFuture<List<EnqueueResult>> enqueueAsync(List<NewJob> jobs, Instant now) {
    List<NewJob> batch;
    try {
      batch = JobStoreArguments.forEnqueue(jobs, now);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    WritesTogether gathering = together.get();
    if (gathering != null && !batch.isEmpty()) {
      return gathering.enqueue(batch, now, () -> store(batch, now));
    }
    return store(batch, now);
  }

  private CompletableFuture<List<EnqueueResult>> store(List<NewJob> batch, Instant now) {
    if (PostgresEnqueue.isOnePlainJob(batch)) {
      return plainEnqueues.submit(new Submitted(batch.get(0), now)).thenApply(List::of);
    }
    return StoreFutures.now(() -> super.enqueue(batch, now));
  }

  private List<EnqueueResult> writeGroup(List<Submitted> group) {
    if (group.size() == 1) {
      Submitted one = group.get(0);
      EnqueueResult stored =
          db.autoCommitted(
              "enqueue", tx -> PostgresEnqueue.enqueueOnePlain(tx, one.job(), one.now()));
      return List.of(stored);
    }
    List<NewJob> jobs = new ArrayList<>(group.size());
    List<Instant> nows = new ArrayList<>(group.size());
    for (Submitted submitted : group) {
      jobs.add(submitted.job());
      nows.add(submitted.now());
    }
    // One statement commits on its own; a group too large for one must not commit in parts, since
    // a refused second part would have the first written again item by item.
    return PostgresEnqueue.fitsOneStatement(jobs)
        ? db.autoCommitted("enqueue", tx -> PostgresEnqueue.insertGroup(tx, jobs, nows))
        : db.inTransaction("enqueue", tx -> PostgresEnqueue.insertGroup(tx, jobs, nows));
  }

  /**
   * As {@link #lease}; inside {@link #writeTogether}, kept for that transaction and answered once
   * it has committed.
   */
  @Override
  public CompletableFuture<List<Job>> leaseAsync(LeaseSpec spec, Instant now) {
    WritesTogether gathering = together.get();
    if (gathering == null) {
      return StoreFutures.now(() -> lease(spec, now));
    }
    try {
      JobStoreArguments.forLease(spec, now);
      return gathering.lease(
          spec,
          now,
          limitedQueues.hasLimits(spec.queue(), now),
          () -> StoreFutures.now(() -> lease(spec, now)));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * As {@link #completeAll}; inside {@link #writeTogether}, kept for that transaction and answered
   * once it has committed.
   */
  @Override
  public CompletableFuture<List<CompletionOutcome>> completeAllAsync(
      String workerId, List<Completion> completions, Instant now) {
    WritesTogether gathering = together.get();
    if (gathering == null) {
      return StoreFutures.now(() -> completeAll(workerId, completions, now));
    }
    List<Completion> batch;
    try {
      batch = JobStoreArguments.forCompleteAll(workerId, completions, now);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    return gathering.completeAll(
        workerId, batch, now, () -> StoreFutures.now(() -> completeAll(workerId, batch, now)));
  }

  /**
   * The Enqueues, leases and completions made inside run in one transaction on this thread when
   * {@code submissions} returns, in the order made ({@link WritesTogether}): a job ready at once
   * and the lease of a waiting worker that takes it share one commit. Nested calls join the
   * outermost.
   */
  @Override
  public <T> T writeTogether(Supplier<T> submissions) {
    if (together.get() != null) {
      return submissions.get();
    }
    WritesTogether gathering = new WritesTogether(this::slotsFreed);
    together.set(gathering);
    try {
      return submissions.get();
    } finally {
      together.remove();
      gathering.commit(db);
    }
  }

  @Override
  public boolean commitsTogether() {
    return true;
  }

  /**
   * A queue without limits (as last read, see {@link LimitedQueues}) leases in one autocommitted
   * statement; one with limits in a transaction that locks the queue's row ({@link
   * LimitedLeases#leaseLocked}).
   */
  @Override
  public List<Job> lease(LeaseSpec spec, Instant now) {
    JobStoreArguments.forLease(spec, now);
    if (limitedQueues.hasLimits(spec.queue(), now)) {
      return db.inTransaction("limited lease", tx -> LimitedLeases.leaseLocked(tx, spec, now));
    }
    return super.lease(spec, now);
  }

  /**
   * In a queue with limits, every coordinator's Lease calls waiting on the queue are told (NOTIFY)
   * to look again; a queue without limits pays nothing (its freed slot makes no job leasable).
   */
  @Override
  protected void slotsFreed(List<String> queues, Instant now) {
    limitedQueues.slotsFreed(queues, now);
  }

  /** The next lease reads which queues have limits again. */
  @Override
  protected void limitsSet(String queue, QueueLimits limits) {
    limitedQueues.invalidate();
  }

  @Override
  public void subscribeTokenWakeups(BiConsumer<String, Instant> listener) {
    Objects.requireNonNull(listener, "listener");
    db.tokenWakeups().subscribe(listener);
  }

  /**
   * Calls {@code queueListener} with the queue named by every {@code antrean_jobs_ready}
   * notification on the database: from other coordinators, and from this store's own changes too (a
   * harmless extra wake-up), which are announced a moment after they commit, in-process while no
   * other coordinator listens ({@link ListenerCensus}). The first subscription opens a dedicated
   * listening connection outside the pool, on a daemon thread that reconnects with backoff after a
   * failure. Notifications sent while it is disconnected are lost; the coordinator's periodic
   * backup sweep finds those jobs. Listeners run on that thread and must not block.
   */
  @Override
  public void subscribeJobsReady(Consumer<String> queueListener) {
    Objects.requireNonNull(queueListener, "queueListener");
    if (isClosed()) {
      throw new StoreUnavailableException("the PostgreSQL job store is closed", null);
    }
    jobsReady.subscribe(queueListener);
  }

  /**
   * Stops the listener, lets calls in flight finish (HikariCP waits a few seconds for connections
   * in use), and closes the pool.
   */
  @Override
  protected void release() {
    statisticsTimer.shutdownNow();
    jobsReady.close();
    // Drains already queued still run; after that, callers write what waits themselves.
    enqueueDrainer.shutdown();
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

  /** Whether this store's changes go out as notifications (another coordinator may listen). */
  boolean notifiesOthers() {
    return census.othersMayListen();
  }
}
