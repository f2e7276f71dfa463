package io.antrean.coordinator.store.sqlite;

import io.antrean.benchmarks.ForkedJvm;
import io.antrean.benchmarks.StoreWorkload;
import io.antrean.benchmarks.TempDirectory;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.EnqueueResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The SQLite store's hot paths through its {@code JobStore} methods, on a real database file (WAL)
 * with default options: every write returns only after the group commit that holds it was fsynced
 * ({@link WalSync}). Scores are operations per second; where an operation is a batch, it is counted
 * per job ({@link OperationsPerInvocation}), so the scores compare as jobs per second.
 *
 * <p>Why it matters: the embedded store is the default deployment, and its single writer thread is
 * the one place every enqueue, lease and completion passes through. These numbers say how much of a
 * coordinator's budget the store takes and whether group commit does its job: {@code
 * enqueueOneFrom16Threads} against {@code enqueueOne} is the gain of grouping, and the writer's
 * operations per commit are printed at the end of each trial.
 *
 * <p>Each benchmark gets its own store in a new temporary directory (see {@link TempDirectory} to
 * put it on the disk you mean to measure), made in {@code @Setup(Level.Trial)} and deleted in
 * {@code @TearDown}. Lives in the store's package to read the writer's commit counters.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsPrepend = ForkedJvm.QUIET_LOGS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public class SqliteStoreBenchmark {
  static final int LEASE_BATCH = 32;
  static final int GET_JOBS = 10_000;

  /** One job per call, from one producer thread: a call pays a whole fsync. */
  @Benchmark
  public List<EnqueueResult> enqueueOne(EmptyStore s) {
    return StoreWorkload.enqueue(s.store, 1);
  }

  /** One job per call from 16 threads at once: the writer commits them in groups. */
  @Benchmark
  @Threads(16)
  public List<EnqueueResult> enqueueOneFrom16Threads(EmptyStore s) {
    return StoreWorkload.enqueue(s.store, 1);
  }

  /** One EnqueueBatch of 1,000 jobs per call; scored per job. */
  @Benchmark
  @OperationsPerInvocation(StoreWorkload.MAX_BATCH)
  public List<EnqueueResult> enqueueBatchOf1000(EmptyStore s) {
    return StoreWorkload.enqueue(s.store, StoreWorkload.MAX_BATCH);
  }

  /**
   * One worker's cycle: lease 32 ready jobs in one call, then complete them one call after another
   * (33 commits, nothing to group them with). Scored per job. The 32 jobs are enqueued before each
   * call, outside the measurement.
   */
  @Benchmark
  @OperationsPerInvocation(LEASE_BATCH)
  public List<Job> leaseAndComplete32(ThirtyTwoReady s) {
    List<Job> leased = StoreWorkload.lease(s.store, LEASE_BATCH);
    StoreWorkload.completeEach(s.store, leased);
    return leased;
  }

  /**
   * The same cycle with the completions batched, as workers report through CompleteBatch: lease 32
   * in one call, complete the 32 in one call (two commits). Scored per job; against {@code
   * leaseAndComplete32} it is the gain of batching completions.
   */
  @Benchmark
  @OperationsPerInvocation(LEASE_BATCH)
  public List<CompletionOutcome> leaseAndCompleteAll32(ThirtyTwoReady s) {
    return StoreWorkload.completeAll(s.store, StoreWorkload.lease(s.store, LEASE_BATCH));
  }

  /**
   * One lease call for up to 32 jobs with {@code backlog} jobs pending in the queue: 0 measures a
   * poll that finds nothing, the others whether the queue's depth changes the cost of taking the
   * first 32. The jobs taken are replaced after each call, outside the measurement.
   */
  @Benchmark
  public List<Job> lease32(Backlog s) {
    List<Job> leased = StoreWorkload.lease(s.store, LEASE_BATCH);
    s.leased = leased.size();
    return leased;
  }

  /** One job with its history by id, from the read connections (never the writer). */
  @Benchmark
  public Optional<Job> getById(StoredJobs s) {
    return s.store.get(s.nextId());
  }

  /** A store open in its own temporary directory; subclasses say when it opens and closes. */
  abstract static class StoreState {
    Path dir;
    SqliteJobStore store;

    final void openStore() {
      dir = TempDirectory.create("antrean-sqlite-bench");
      // The rows path: young jobs off, so that each score is the database's own work.
      store = SqliteJobStore.open(dir, SqliteOptions.defaults().withYoungJobs(false));
    }

    final void closeStore(String what) {
      SqliteWriter writer = store.writer();
      long commits = writer.groupCommit().commits();
      long operations = writer.groupCommit().operations();
      store.close();
      TempDirectory.delete(dir);
      System.out.printf(
          "%n%s: the writer ran %d operations in %d commits (%.1f per commit)%n",
          what, operations, commits, commits == 0 ? 0.0 : (double) operations / commits);
    }
  }

  /** An empty store, one per benchmark. */
  @State(Scope.Benchmark)
  public static class EmptyStore extends StoreState {
    @Setup(Level.Trial)
    public void open() {
      openStore();
    }

    @TearDown(Level.Trial)
    public void close() {
      closeStore("store that started empty");
    }
  }

  /** A store that holds 32 ready jobs at the start of each call. */
  @State(Scope.Benchmark)
  public static class ThirtyTwoReady extends StoreState {
    @Setup(Level.Trial)
    public void open() {
      openStore();
    }

    @Setup(Level.Invocation)
    public void enqueue32() {
      StoreWorkload.enqueue(store, LEASE_BATCH);
    }

    @TearDown(Level.Trial)
    public void close() {
      closeStore(
          "store with 32 ready per call (each call: 1 lease, then 32 completes or one completeAll"
              + " of 32, plus the refill)");
    }
  }

  /** A store whose queue holds {@code backlog} pending jobs at the start of each call. */
  @State(Scope.Benchmark)
  public static class Backlog extends StoreState {
    /** Pending jobs in the queue before each lease call. */
    @Param({"0", "1000", "100000"})
    public int backlog;

    int leased;

    @Setup(Level.Trial)
    public void open() {
      openStore();
      StoreWorkload.fill(store, backlog);
    }

    @TearDown(Level.Invocation)
    public void refill() {
      if (leased > 0) {
        StoreWorkload.enqueue(store, leased);
        leased = 0;
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      closeStore("store with a backlog of " + backlog + " (each call: 1 lease, plus the refill)");
    }
  }

  /** A store with {@value #GET_JOBS} running jobs, each with one attempt in its history. */
  @State(Scope.Benchmark)
  public static class StoredJobs extends StoreState {
    long[] ids;
    int next;

    @Setup(Level.Trial)
    public void open() {
      openStore();
      StoreWorkload.fill(store, GET_JOBS);
      ids = new long[GET_JOBS];
      int count = 0;
      while (count < GET_JOBS) {
        for (Job job : StoreWorkload.lease(store, 256)) {
          ids[count++] = job.id();
        }
      }
    }

    long nextId() {
      long id = ids[next];
      next = next + 1 == ids.length ? 0 : next + 1;
      return id;
    }

    @TearDown(Level.Trial)
    public void close() {
      closeStore("store of " + GET_JOBS + " jobs (reads do not go through the writer)");
    }
  }
}
