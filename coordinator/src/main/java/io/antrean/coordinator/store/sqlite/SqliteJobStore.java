package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.AsyncWrites;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.DeadLetterQueue;
import io.antrean.coordinator.store.jdbc.Dependencies;
import io.antrean.coordinator.store.jdbc.HeldJobs;
import io.antrean.coordinator.store.jdbc.JdbcJobStore;
import io.antrean.coordinator.store.jdbc.JobStoreArguments;
import io.antrean.coordinator.store.jdbc.LeaseWrites;
import io.antrean.coordinator.store.jdbc.Outcome;
import io.antrean.coordinator.store.jdbc.QueueControlRows;
import io.antrean.coordinator.store.jdbc.SessionWork;
import io.antrean.coordinator.store.jdbc.TokenWakeups;
import io.antrean.coordinator.store.jdbc.WorkerWrites;
import io.antrean.coordinator.store.sqlite.NewJobRows.PlainEnqueue;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded {@link JobStore}: one SQLite database file ({@value SqliteOptions#DATABASE_FILE}) in
 * a data directory, in WAL mode; a call that returns has been fsynced: its commit, then the WAL
 * file ({@link WalSync}), before its answer.
 *
 * <p>Every change goes through one writer thread that commits the changes of all waiting callers
 * together (group commit): many concurrent callers pay for one fsync. Reads use a small pool of
 * read-only connections and never wait for the writer. Times are kept as epoch microseconds; finer
 * digits are dropped.
 *
 * <p>Thread-safe. The data directory is locked while the store is open: one store per directory.
 */
public final class SqliteJobStore extends JdbcJobStore {
  private static final Logger log = LoggerFactory.getLogger(SqliteJobStore.class);
  private static final SqliteDialect DIALECT = SqliteDialect.INSTANCE;

  /** Where the young jobs' log lives in the data directory ({@link SqliteOptions#youngJobs}). */
  static final String YOUNG_LOG_DIRECTORY = "young";

  private final SqliteFile file;
  private final SqliteWriter writer;
  private final ReadConnections reads;
  private final SlotWakeups wakeups = new SlotWakeups();
  private final TokenWakeups tokenWakeups;
  @Nullable private final YoungLayer young;

  SqliteJobStore(
      SqliteFile file,
      SqliteWriter writer,
      ReadConnections reads,
      TokenWakeups tokenWakeups,
      @Nullable YoungLayer young) {
    // Every change is a transaction of its own on the writer, committed with its group.
    super(
        foldingFirst(reads, writer, young),
        foldingFirst(reads, writer, young),
        writer::execute,
        writer::execute,
        reads::read); // the settings' reads find no young job to fold
    this.file = file;
    this.writer = writer;
    this.reads = reads;
    this.tokenWakeups = tokenWakeups;
    this.young = young;
    wakeups.load(queueLimits());
    writer.onDependentsReady(wakeups::dependentsReady);
  }

  /**
   * Opens (creating if needed) the store in {@code dataDir} and brings its schema up to date.
   *
   * @throws StoreUnavailableException if the directory or database cannot be used, or another store
   *     holds the directory
   * @throws IllegalStateException if a newer version of Antrean wrote the database
   */
  public static SqliteJobStore open(Path dataDir, SqliteOptions options) {
    return SqliteStoreOpening.open(dataDir, options);
  }

  /** Reads that fold the young jobs first ({@link YoungLayer#foldBeforeRead}). */
  private static Runner foldingFirst(
      ReadConnections reads, SqliteWriter writer, @Nullable YoungLayer young) {
    return new Runner() {
      @Override
      public <T> T run(String what, SessionWork<T> work) {
        YoungLayer.foldBeforeRead(young, writer);
        return reads.read(what, work);
      }
    };
  }

  /** Opens the store in {@code dataDir} with {@link SqliteOptions#defaults()}. */
  public static SqliteJobStore open(Path dataDir) {
    return open(dataDir, SqliteOptions.defaults());
  }

  /**
   * With young jobs on, {@link #enqueueAsync} waited for, so that a plain Enqueue keeps its jobs
   * young whichever form it came in; otherwise as every JDBC store does.
   */
  @Override
  public List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) {
    if (!keepsYoungJobs()) {
      return super.enqueue(jobs, now);
    }
    return writer.await(() -> enqueueAsync(jobs, now));
  }

  @Override
  public CompletableFuture<List<EnqueueResult>> enqueueAsync(List<NewJob> jobs, Instant now) {
    List<NewJob> batch = JobStoreArguments.forEnqueue(jobs, now);
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    PlainEnqueue plain = PlainEnqueue.of(batch, now);
    return plain == null
        ? writer.submit("enqueue", c -> Dependencies.enqueue(c, batch, now))
        : writer.submit(WriteTask.enqueue(plain));
  }

  @Override
  public CompletableFuture<List<Job>> leaseAsync(LeaseSpec spec, Instant now) {
    JobStoreArguments.forLease(spec, now);
    return writer.submit(
        WriteTask.withYoungForm(
            "lease", c -> DIALECT.lease(c, spec, now), (c, y) -> YoungWork.lease(c, y, spec, now)));
  }

  /** With young jobs on, {@link #leaseAsync} waited for, so that it leases young jobs too. */
  @Override
  public List<Job> lease(LeaseSpec spec, Instant now) {
    return keepsYoungJobs() ? writer.await(() -> leaseAsync(spec, now)) : super.lease(spec, now);
  }

  /** With young jobs on, {@link #completeAllAsync} waited for, so that it completes young jobs. */
  @Override
  public List<CompletionOutcome> completeAll(
      String workerId, List<Completion> completions, Instant now) {
    return keepsYoungJobs()
        ? writer.await(() -> completeAllAsync(workerId, completions, now))
        : super.completeAll(workerId, completions, now);
  }

  /** With young jobs on, a young job's lease is extended in memory ({@link YoungWork}). */
  @Override
  public List<HeartbeatResult> heartbeat(
      String workerId, List<LeaseRenewal> renewals, Instant expiresAt, Instant now) {
    if (!keepsYoungJobs()) {
      return super.heartbeat(workerId, renewals, expiresAt, now);
    }
    List<LeaseRenewal> batch = JobStoreArguments.forHeartbeat(workerId, renewals, expiresAt, now);
    if (batch.isEmpty()) {
      return List.of();
    }
    return awaitWithYoungForm(
        "heartbeat",
        c -> WorkerWrites.heartbeat(c, workerId, batch, expiresAt, now),
        (c, y) -> YoungWork.heartbeat(c, y, workerId, batch, expiresAt, now));
  }

  /** Young jobs stay young: a pause changes the queue's row, not its jobs'. */
  @Override
  public void setQueuePaused(String queue, boolean paused, Instant now) {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(now, "now");
    writer.await(
        () ->
            writer.submit(
                WriteTask.apartFromJobs(
                    paused ? "pause queue" : "resume queue",
                    c -> QueueControlRows.setPaused(c, queue, paused, now))));
  }

  /** With young jobs on, counted with the rows on the writer without a fold ({@link YoungWork}). */
  @Override
  public List<QueueCounts> stats(@Nullable String queue, Instant now) {
    return youngStats(queue, now, false);
  }

  @Override
  public List<QueueCounts> unfinishedStats(@Nullable String queue, Instant now) {
    return youngStats(queue, now, true);
  }

  private List<QueueCounts> youngStats(@Nullable String queue, Instant now, boolean unfinished) {
    Objects.requireNonNull(now, "now");
    if (!countsYoungOnWriter()) {
      return unfinished ? super.unfinishedStats(queue, now) : super.stats(queue, now);
    }
    return awaitWithYoungForm(
        "read stats",
        c -> DIALECT.stats(c, queue, now, unfinished),
        (c, y) -> YoungWork.stats(c, y, queue, now, unfinished));
  }

  /**
   * With young jobs on, counted on the writer without a fold unless a queue with limits has young
   * jobs ({@link YoungWork#heldByLimits}).
   */
  @Override
  public SortedMap<String, Long> jobsHeldByLimits(Instant now) {
    Objects.requireNonNull(now, "now");
    if (!countsYoungOnWriter()) {
      return super.jobsHeldByLimits(now);
    }
    return awaitWithYoungForm(
        "count jobs held by limits",
        c -> HeldJobs.count(c, now),
        (c, y) -> YoungWork.heldByLimits(c, y, now));
  }

  /**
   * With young jobs on, without a fold unless a young job's lease ran out: the sweep then takes
   * back the rows' alone, and young jobs stay young.
   */
  @Override
  public List<Job> expireLeases(Instant now, int limit) {
    if (!keepsYoungJobs()) {
      return super.expireLeases(now, limit);
    }
    JobStoreArguments.forExpireLeases(now, limit);
    SessionWork<List<Job>> expire = c -> LeaseWrites.expireLeases(c, now, limit);
    List<Job> taken =
        awaitWithYoungForm(
            "expireLeases", expire, (c, y) -> y.anyLeaseRunOutBy(now) ? null : expire.run(c));
    slotsFreed(taken.stream().map(Job::queue).toList(), now);
    return taken;
  }

  /** Fails once no write can be made durable: a failed fsync, or a young jobs' log that failed. */
  @Override
  public void requireWritable() {
    writer.groupCommit().requireSound();
  }

  /** Without a fold: a young job is never FAILED, so never among the dead letters counted. */
  @Override
  public List<DeadLetterGroup> deadLetteredSince(Instant since) {
    Objects.requireNonNull(since, "since");
    return reads.read("count dead letters", s -> DeadLetterQueue.groupsSince(s, since));
  }

  private boolean keepsYoungJobs() {
    return young != null && young.accepting();
  }

  // Whether a count reads the young jobs on the writer: there are some, and this thread may wait.
  private boolean countsYoungOnWriter() {
    return keepsYoungJobs() && young.hasYoung() && writer.mayWait();
  }

  /** Runs the operation on the writer, in its form on the young jobs where it has an answer. */
  private <T> T awaitWithYoungForm(
      String name, SessionWork<T> operation, WriteTask.YoungForm<T> youngForm) {
    return writer.await(() -> writer.submit(WriteTask.withYoungForm(name, operation, youngForm)));
  }

  @Override
  public CompletableFuture<Job> completeAsync(
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now) {
    byte[] resultCopy = JobStoreArguments.forComplete(workerId, result, now);
    return writer
        .submit(
            "complete",
            c ->
                WorkerWrites.completeInTransaction(
                    c, jobId, claim, workerId, resultCopy, resultContentType, now))
        .thenApply(Outcome::orThrow)
        .thenApply(wakeups::freed);
  }

  @Override
  public CompletableFuture<List<CompletionOutcome>> completeAllAsync(
      String workerId, List<Completion> completions, Instant now) {
    List<Completion> batch = JobStoreArguments.forCompleteAll(workerId, completions, now);
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    return writer
        .submit(
            WriteTask.withYoungForm(
                "completeAll",
                c -> WorkerWrites.completeAll(c, workerId, batch, now),
                (c, y) -> YoungWork.completeAll(c, y, workerId, batch, now)))
        .thenApply(wakeups::freedAll);
  }

  @Override
  protected void slotsFreed(List<String> queues, Instant now) {
    wakeups.slotsFreed(queues);
  }

  @Override
  protected void limitsSet(String queue, QueueLimits limits) {
    wakeups.limitsSet(queue, limits);
  }

  /**
   * Reports a queue when a job that ran in it stopped running while the queue has limits: a slot is
   * free for a held-back job. Every other change comes through the one coordinator, which wakes its
   * own waiting Lease calls.
   */
  @Override
  public void subscribeJobsReady(Consumer<String> queueListener) {
    Objects.requireNonNull(queueListener, "queueListener");
    wakeups.subscribe(queueListener);
  }

  /** Rate-limit wake-ups of the writer's leases (the only leases there are). */
  @Override
  public void subscribeTokenWakeups(BiConsumer<String, Instant> listener) {
    Objects.requireNonNull(listener, "listener");
    tokenWakeups.subscribe(listener);
  }

  /** The async forms hand their work to the one writer thread and return at once. */
  @Override
  public AsyncWrites asyncWrites() {
    return AsyncWrites.ONE_WRITER_IN_ORDER;
  }

  /** The writes submitted inside go to the writer as one unit, into one group commit. */
  @Override
  public <T> T writeTogether(Supplier<T> submissions) {
    return writer.together(submissions);
  }

  @Override
  public <T> T writeAmongOthers(Supplier<T> submissions) {
    return writer.amongOthers(submissions);
  }

  @Override
  public boolean commitsTogether() {
    return true;
  }

  /**
   * Lets the writer finish what is queued, then closes every connection and unlocks the data
   * directory.
   */
  @Override
  protected void release() {
    try {
      writer.close();
      if (young != null) {
        young.close();
      }
    } finally {
      reads.close();
      file.close();
    }
    log.info("SQLite job store at {} closed", file.database());
  }

  /** The writer, for tests that count group commits. */
  SqliteWriter writer() {
    return writer;
  }

  /** Folds the young jobs, if any: at start-up, and for tests that inspect the database file. */
  void foldYoungJobs() {
    YoungLayer.foldBeforeRead(young, writer);
  }

  /** The young jobs' layer (null if none), for tests of its duties. */
  @Nullable
  YoungLayer young() {
    return young;
  }
}
