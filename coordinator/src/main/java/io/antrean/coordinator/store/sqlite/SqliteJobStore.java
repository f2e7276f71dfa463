package io.antrean.coordinator.store.sqlite;

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
import io.antrean.coordinator.store.jdbc.Outcome;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded {@link JobStore}: one SQLite database file ({@value SqliteOptions#DATABASE_FILE}) in
 * a data directory, in WAL mode with {@code synchronous=FULL}, so a call that returns has been
 * fsynced.
 *
 * <p>Every change goes through one writer thread that commits the changes of all waiting callers
 * together (group commit): many concurrent callers pay for one fsync. Reads use a small pool of
 * read-only connections and never wait for the writer. Times are kept as epoch microseconds; finer
 * digits are dropped.
 *
 * <p>Thread-safe. The data directory is locked while the store is open: one store per directory.
 */
public final class SqliteJobStore implements JobStore {
  private static final Logger log = LoggerFactory.getLogger(SqliteJobStore.class);

  private final SqliteFile file;
  private final SqliteWriter writer;
  private final ReadConnections reads;
  private final ScheduleStore schedules;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SqliteJobStore(SqliteFile file, SqliteWriter writer, ReadConnections reads) {
    this.file = file;
    this.writer = writer;
    this.reads = reads;
    this.schedules = new JdbcScheduleStore(new SqliteScheduleTransactions(writer, reads));
  }

  /**
   * Opens (creating if needed) the store in {@code dataDir} and brings its schema up to date.
   *
   * @throws StoreUnavailableException if the directory or database cannot be used, or another store
   *     holds the directory
   * @throws IllegalStateException if a newer version of Antrean wrote the database
   */
  public static SqliteJobStore open(Path dataDir, SqliteOptions options) {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(options, "options");
    SqliteFile file = SqliteFile.lock(dataDir, options);
    CachedConnection writerConnection = null;
    try {
      writerConnection = file.openWriter();
      SqliteSchema.migrate(writerConnection.connection());
      ReadConnections reads = ReadConnections.open(file, options.readConnections());
      SqliteWriter writer =
          SqliteWriter.start(
              writerConnection, options.maxGroupOperations(), options.maxQueuedWrites());
      log.info("SQLite job store open at {}", file.database());
      return new SqliteJobStore(file, writer, reads);
    } catch (SQLException | RuntimeException e) {
      if (writerConnection != null) {
        writerConnection.close();
      }
      file.close();
      if (e instanceof SQLException sql) {
        throw SqlFailures.translate("opening " + file.database(), sql);
      }
      throw (RuntimeException) e;
    }
  }

  /** Opens the store in {@code dataDir} with {@link SqliteOptions#defaults()}. */
  public static SqliteJobStore open(Path dataDir) {
    return open(dataDir, SqliteOptions.defaults());
  }

  @Override
  public List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) {
    return writer.await(() -> enqueueAsync(jobs, now));
  }

  @Override
  public CompletableFuture<List<EnqueueResult>> enqueueAsync(List<NewJob> jobs, Instant now) {
    List<NewJob> batch = JobStoreArguments.forEnqueue(jobs, now);
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    return writer.submit("enqueue", c -> ProducerWrites.enqueue(c, batch, now));
  }

  @Override
  public List<Job> lease(LeaseSpec spec, Instant now) {
    return writer.await(() -> leaseAsync(spec, now));
  }

  @Override
  public CompletableFuture<List<Job>> leaseAsync(LeaseSpec spec, Instant now) {
    JobStoreArguments.forLease(spec, now);
    return writer.submit("lease", c -> LeaseWrites.lease(c, spec, now));
  }

  @Override
  public List<HeartbeatResult> heartbeat(
      String workerId, List<LeaseRenewal> renewals, Instant expiresAt, Instant now) {
    List<LeaseRenewal> batch = JobStoreArguments.forHeartbeat(workerId, renewals, expiresAt, now);
    if (batch.isEmpty()) {
      return List.of();
    }
    return writer.execute(
        "heartbeat", c -> WorkerWrites.heartbeat(c, workerId, batch, expiresAt, now));
  }

  @Override
  public Job complete(
      long jobId,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now) {
    return writer.await(
        () -> completeAsync(jobId, fencingToken, workerId, result, resultContentType, now));
  }

  @Override
  public CompletableFuture<Job> completeAsync(
      long jobId,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now) {
    byte[] resultCopy = JobStoreArguments.forComplete(workerId, result, now);
    return writer
        .submit(
            "complete",
            c ->
                WorkerWrites.complete(
                    c, jobId, fencingToken, workerId, resultCopy, resultContentType, now))
        .thenApply(Outcome::orThrow);
  }

  @Override
  public List<CompletionOutcome> completeAll(
      String workerId, List<Completion> completions, Instant now) {
    return writer.await(() -> completeAllAsync(workerId, completions, now));
  }

  @Override
  public CompletableFuture<List<CompletionOutcome>> completeAllAsync(
      String workerId, List<Completion> completions, Instant now) {
    List<Completion> batch = JobStoreArguments.forCompleteAll(workerId, completions, now);
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    return writer.submit("completeAll", c -> WorkerWrites.completeAll(c, workerId, batch, now));
  }

  /** True: the async forms hand their work to the writer thread and return at once. */
  @Override
  public boolean asyncNeverBlocks() {
    return true;
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
    return writer
        .execute(
            "fail", c -> WorkerWrites.fail(c, jobId, fencingToken, workerId, failure, planner, now))
        .orThrow();
  }

  @Override
  public Job release(long jobId, long fencingToken, String workerId, String reason, Instant now) {
    JobStoreArguments.forRelease(workerId, reason, now);
    return writer
        .execute(
            "release", c -> WorkerWrites.release(c, jobId, fencingToken, workerId, reason, now))
        .orThrow();
  }

  @Override
  public Optional<Job> expireLease(long jobId, long fencingToken, Instant now) {
    Objects.requireNonNull(now, "now");
    return writer.execute("expireLease", c -> LeaseWrites.expireLease(c, jobId, fencingToken, now));
  }

  @Override
  public List<Job> expireLeases(Instant now, int limit) {
    JobStoreArguments.forExpireLeases(now, limit);
    return writer.execute("expireLeases", c -> LeaseWrites.expireLeases(c, now, limit));
  }

  @Override
  public Job cancel(long jobId, Instant now) {
    Objects.requireNonNull(now, "now");
    return writer.execute("cancel", c -> ProducerWrites.cancel(c, jobId, now));
  }

  @Override
  public Optional<Job> get(long jobId) {
    return reads.read("get job", c -> JobReads.get(c, jobId));
  }

  @Override
  public JobPage list(JobQuery query) {
    Objects.requireNonNull(query, "query");
    return reads.read("list jobs", c -> JobReads.list(c, query));
  }

  @Override
  public List<QueueCounts> stats(@Nullable String queue, Instant now) {
    Objects.requireNonNull(now, "now");
    return reads.read("read stats", c -> JobReads.stats(c, queue, now));
  }

  @Override
  public void setQueuePaused(String queue, boolean paused, Instant now) {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(now, "now");
    writer.execute(
        paused ? "pauseQueue" : "resumeQueue",
        c -> QueueControlRows.setPaused(c, queue, paused, now));
  }

  @Override
  public SortedMap<String, Instant> pausedQueues() {
    return reads.read("list paused queues", QueueControlRows::paused);
  }

  @Override
  public List<LeaseRef> runningLeases() {
    return reads.read("list running leases", JobReads::runningLeases);
  }

  @Override
  public JobPage listDeadLetters(DeadLetterQuery query) {
    Objects.requireNonNull(query, "query");
    return reads.read("list dead letters", c -> DeadLetterReads.list(c, query));
  }

  @Override
  public List<Job> redrive(List<Long> jobIds, Instant firstRunAt, Duration spacing, Instant now) {
    List<Long> ids = JobStoreArguments.forRedrive(jobIds, firstRunAt, spacing, now);
    if (ids.isEmpty()) {
      return List.of();
    }
    return writer.execute(
        "redrive", c -> DeadLetterWrites.redrive(c, ids, firstRunAt, spacing, now));
  }

  @Override
  public int purgeDeadLetters(List<Long> jobIds) {
    List<Long> ids = List.copyOf(jobIds);
    return ids.isEmpty() ? 0 : writer.execute("purge", c -> DeadLetterWrites.purge(c, ids));
  }

  @Override
  public int deleteFinished(JobState state, Instant finishedBefore, int limit) {
    JobStoreArguments.forDeleteFinished(state, finishedBefore, limit);
    return writer.execute(
        "deleteFinished", c -> RetentionWrites.deleteFinished(c, state, finishedBefore, limit));
  }

  @Override
  public int forgetExpiredIdempotencyKeys(Instant now, int limit) {
    JobStoreArguments.forForgetExpiredIdempotencyKeys(now, limit);
    return writer.execute(
        "forgetExpiredIdempotencyKeys", c -> RetentionWrites.forgetExpiredKeys(c, now, limit));
  }

  @Override
  public List<DeadLetterGroup> deadLetteredSince(Instant since) {
    Objects.requireNonNull(since, "since");
    return reads.read("count dead letters", c -> DeadLetterReads.groupsSince(c, since));
  }

  @Override
  public ScheduleStore schedules() {
    return schedules;
  }

  /**
   * Lets the writer finish what is queued, then closes every connection and unlocks the data
   * directory. Later calls throw {@link StoreUnavailableException}. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    writer.close();
    reads.close();
    file.close();
    log.info("SQLite job store at {} closed", file.database());
  }

  /** The writer, for tests that count group commits. */
  SqliteWriter writer() {
    return writer;
  }

  /** The database file, for tests that inspect it. */
  Path databaseFile() {
    return file.database();
  }
}
