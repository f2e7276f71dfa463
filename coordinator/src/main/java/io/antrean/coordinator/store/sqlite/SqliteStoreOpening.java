package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.jdbc.TokenWakeups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link SqliteJobStore} opens: the data directory locked, the schema brought up to date, the
 * connections and the writer started, and what a young jobs' log kept folded before it serves; on a
 * failure, whatever was opened closed again.
 */
final class SqliteStoreOpening {
  private static final Logger log = LoggerFactory.getLogger(SqliteJobStore.class);
  private static final SqliteDialect DIALECT = SqliteDialect.INSTANCE;

  /**
   * How long nothing must have been written before a write runs on its caller's thread (see {@link
   * SqliteWriter}): longer than the gap between calls that arrive together (the next of many in
   * flight is read while one commits, and goes to the writer thread, which groups them), shorter
   * than the gap between the Enqueue, Lease and CompleteBatch calls of jobs that come one at a time
   * (at 500 jobs/s, 250 µs left most of those writes to the writer thread, a hop there and back;
   * docs/benchmarks.md).
   */
  private static final Duration CALLER_RUNS_AFTER_IDLE = Duration.ofNanos(50_000);

  private SqliteStoreOpening() {}

  /** As {@link SqliteJobStore#open(Path, SqliteOptions)}. */
  static SqliteJobStore open(Path dataDir, SqliteOptions options) {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(options, "options");
    SqliteFile file = SqliteFile.lock(dataDir, options);
    CachedConnection writerConnection = null;
    WalSync sync = null;
    YoungLayer young = null;
    SqliteJobStore store;
    try {
      TokenWakeups tokenWakeups = new TokenWakeups();
      writerConnection = file.openWriter(tokenWakeups);
      sync = file.walSync();
      SqliteSchema.migrate(file.jdbcUrl(), writerConnection.connection());
      sync.syncAll();
      ReadConnections reads = ReadConnections.open(file, options.readConnections());
      // A log left by a run with young jobs on is folded whether they are on now or not.
      Path youngLog = dataDir.resolve(SqliteJobStore.YOUNG_LOG_DIRECTORY);
      young =
          options.youngJobs() || Files.isDirectory(youngLog)
              ? YoungLayer.open(youngLog, writerConnection, sync, options.youngJobs())
              : null;
      if (young != null && options.youngJobs()) {
        sync.alsoForce(young::forceLog); // only a layer that makes young jobs writes records
      }
      SqliteWriter writer =
          SqliteWriter.start(
              writerConnection,
              sync,
              options.maxGroupOperations(),
              options.maxQueuedWrites(),
              CALLER_RUNS_AFTER_IDLE,
              young);
      store = new SqliteJobStore(file, writer, reads, tokenWakeups, young);
      if (young != null && options.youngJobs()) {
        young.foldWhenQuiet(writer, options.quietFoldAfter());
      }
    } catch (SQLException | RuntimeException e) {
      if (young != null) {
        try {
          young.close(); // its log's files and the thread making its spares
        } catch (RuntimeException closing) {
          e.addSuppressed(closing);
        }
      }
      if (writerConnection != null) {
        writerConnection.close();
      }
      if (sync != null) {
        sync.close();
      }
      file.close();
      if (e instanceof SQLException sql) {
        throw DIALECT.translate("opening " + file.database(), sql);
      }
      throw (RuntimeException) e;
    }
    try {
      store.foldYoungJobs(); // what a log kept, before serving
    } catch (RuntimeException e) {
      store.close(); // its writer, reads, log and lock
      throw e;
    }
    log.info("SQLite job store open at {}", file.database());
    return store;
  }
}
