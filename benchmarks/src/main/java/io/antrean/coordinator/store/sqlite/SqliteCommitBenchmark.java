package io.antrean.coordinator.store.sqlite;

import io.antrean.benchmarks.ForkedJvm;
import io.antrean.benchmarks.StoreWorkload;
import io.antrean.benchmarks.TempDirectory;
import io.antrean.coordinator.store.EnqueueResult;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One durable commit of one job, below the writer thread: {@code BEGIN IMMEDIATE}, the store's own
 * insert of one job, {@code COMMIT} and the WAL's fsync ({@link WalSync}), on a connection opened
 * exactly as the writer's (WAL, {@code synchronous=NORMAL}, our schema and indexes). Sampled, so
 * the score gives the median and the tail of a commit on this disk: the floor under {@code antrean
 * bench enqueue-1}.
 *
 * <p>{@code checkpoints} compares where WAL checkpoints run. {@code in-commit} is SQLite's default
 * and the store's: the commit that takes the WAL past 1,000 pages copies it back into the database
 * file (and fsyncs that file) before it returns. {@code background} turns that off on the writing
 * connection and runs a {@code PASSIVE} checkpoint from another connection and thread every 100 ms,
 * as a store could do to keep checkpoints out of its commits. The difference between the two is
 * what moving checkpoints off the writer thread would buy.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsPrepend = ForkedJvm.QUIET_LOGS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 3)
public class SqliteCommitBenchmark {

  /** One job inserted and committed. */
  @Benchmark
  public List<EnqueueResult> insertAndCommit(Database db) throws SQLException {
    Instant now = Instant.now();
    db.writer.execute("BEGIN IMMEDIATE");
    List<EnqueueResult> stored =
        SqliteDialect.INSTANCE.enqueue(db.writer, List.of(StoreWorkload.newJob(now)), now);
    db.writer.execute("COMMIT");
    db.sync.syncAll();
    return stored;
  }

  /** A database file with our schema, its writing connection and, maybe, a checkpointer. */
  @State(Scope.Benchmark)
  public static class Database {
    private static final long CHECKPOINT_EVERY_MILLIS = 100;

    /** Where WAL checkpoints run: {@code in-commit} or {@code background}. */
    @Param({"in-commit", "background"})
    public String checkpoints;

    Path dir;
    SqliteFile file;
    CachedConnection writer;
    WalSync sync;
    CachedConnection checkpointer;
    ScheduledExecutorService background;

    @Setup(Level.Trial)
    public void open() throws SQLException {
      dir = TempDirectory.create("antrean-sqlite-commit-bench");
      file = SqliteFile.lock(dir, SqliteOptions.defaults());
      writer = file.openWriter();
      sync = file.walSync();
      SqliteSchema.migrate(file.jdbcUrl(), writer.connection());
      switch (checkpoints) {
        case "in-commit" -> {}
        case "background" -> startCheckpointer();
        default -> throw new IllegalArgumentException("unknown checkpoints: " + checkpoints);
      }
    }

    private void startCheckpointer() throws SQLException {
      writer.execute("PRAGMA wal_autocheckpoint = 0");
      checkpointer = file.openWriter();
      background = Executors.newSingleThreadScheduledExecutor();
      background.scheduleWithFixedDelay(
          this::checkpoint,
          CHECKPOINT_EVERY_MILLIS,
          CHECKPOINT_EVERY_MILLIS,
          TimeUnit.MILLISECONDS);
    }

    private void checkpoint() {
      try (Statement statement = checkpointer.connection().createStatement();
          ResultSet result = statement.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
        result.next();
      } catch (SQLException e) {
        throw new IllegalStateException("background checkpoint failed", e);
      }
    }

    @TearDown(Level.Trial)
    public void close() throws InterruptedException {
      if (background != null) {
        background.shutdownNow();
        background.awaitTermination(10, TimeUnit.SECONDS);
        checkpointer.close();
      }
      writer.close();
      sync.close();
      file.close();
      TempDirectory.delete(dir);
    }
  }
}
