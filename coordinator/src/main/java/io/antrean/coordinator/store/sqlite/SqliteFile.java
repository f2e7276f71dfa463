package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.TokenWakeups;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * The database file of one data directory. Holds an exclusive lock on the directory while open,
 * because the store's correctness rests on its writer thread being the only writer: a second
 * process (or a second store in this process) on the same directory is refused.
 */
final class SqliteFile implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SqliteFile.class);
  private static final String LOCK_FILE = "antrean.lock";

  private final Path database;
  private final SqliteOptions options;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private SqliteFile(Path database, SqliteOptions options, FileChannel channel, FileLock lock) {
    this.database = database;
    this.options = options;
    this.lockChannel = channel;
    this.lock = lock;
  }

  /**
   * Creates the directory if needed and locks it.
   *
   * @throws StoreUnavailableException if the directory cannot be used or another store holds it
   */
  static SqliteFile lock(Path dataDir, SqliteOptions options) {
    FileChannel channel = null;
    try {
      Files.createDirectories(dataDir);
      channel =
          FileChannel.open(
              dataDir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw new OverlappingFileLockException();
      }
      return new SqliteFile(dataDir.resolve(SqliteOptions.DATABASE_FILE), options, channel, lock);
    } catch (IOException | OverlappingFileLockException e) {
      closeQuietly(channel);
      String why =
          e instanceof OverlappingFileLockException
              ? "is in use by another store"
              : "cannot be used";
      throw new StoreUnavailableException("data directory " + dataDir + " " + why, e);
    }
  }

  Path database() {
    return database;
  }

  /** What makes the writer's commits durable: fsyncs of this database's WAL file. */
  WalSync walSync() {
    return WalSync.of(database.resolveSibling(database.getFileName() + "-wal"));
  }

  /**
   * Page cache of the writer connection, in KiB (native memory, not the Java heap): large enough to
   * keep the pending index's hot end and the recently written pages of a backlog of millions of
   * jobs, so leasing does not go to the OS for every page.
   */
  static final int WRITER_CACHE_KIB = 64 * 1024;

  /** Page cache of each read connection, in KiB. */
  static final int READER_CACHE_KIB = 16 * 1024;

  /**
   * The one connection that writes: WAL with {@code synchronous=NORMAL} (a commit writes the WAL
   * but does not fsync it: {@link #walSync()} does that before anything is answered), foreign keys
   * on, a large page cache, and temporary files in memory. The last matters for speed: the writer
   * opens a savepoint per operation of a group commit, and SQLite keeps the pages a savepoint may
   * have to restore in a sub-journal that, with temporary files on disk, spills to a file it
   * creates, writes and deletes again; that took about a tenth of the coordinator's CPU on the
   * end-to-end path. The sub-journal is not needed after a crash (the WAL is the durable record),
   * so memory loses nothing.
   */
  CachedConnection openWriter() throws SQLException {
    return openWriter(null);
  }

  /** {@link #openWriter()}, its leases reporting rate-limit wake-ups to {@code tokenWakeups}. */
  CachedConnection openWriter(@Nullable TokenWakeups tokenWakeups) throws SQLException {
    SQLiteConfig config = baseConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setTempStore(SQLiteConfig.TempStore.MEMORY);
    config.setCacheSize(-WRITER_CACHE_KIB);
    Connection connection = DriverManager.getConnection(jdbcUrl(), config.toProperties());
    try (Statement statement = connection.createStatement();
        ResultSet mode = statement.executeQuery("PRAGMA journal_mode")) {
      if (!mode.next() || !"wal".equalsIgnoreCase(mode.getString(1))) {
        connection.close();
        throw new SQLException("WAL journal mode is not available for " + database);
      }
    }
    return new CachedConnection(connection, tokenWakeups);
  }

  /**
   * A connection that may only read; it sees the last committed state at each statement. It knows
   * the {@link CaseFolding} function that filters need.
   */
  CachedConnection openReader() throws SQLException {
    SQLiteConfig config = baseConfig();
    config.setCacheSize(-READER_CACHE_KIB);
    Connection connection = DriverManager.getConnection(jdbcUrl(), config.toProperties());
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA query_only = 1");
      CaseFolding.register(connection);
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    return new CachedConnection(connection);
  }

  private SQLiteConfig baseConfig() {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout((int) options.busyTimeout().toMillis());
    config.enforceForeignKeys(true);
    // The driver otherwise matches every executed statement against a regular expression to offer
    // getGeneratedKeys, which this store never calls: about a tenth of the coordinator's Java CPU
    // on the end-to-end path went to that match and the strings it builds.
    config.setGetGeneratedKeys(false);
    // Without SQLite's own mutex per connection: the driver already makes every call on a
    // connection under that connection's monitor (SqliteFileTest checks the driver's methods), so
    // SQLite's lock, taken and released in each of them (every column of every row read), only
    // cost time: 2.3 % of the coordinator's samples in a profile of the end-to-end path.
    config.setOpenMode(SQLiteOpenMode.NOMUTEX);
    return config;
  }

  /** The JDBC URL of the database file. */
  String jdbcUrl() {
    return "jdbc:sqlite:" + database.toAbsolutePath();
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      log.warn("releasing the lock on {} failed", database.getParent(), e);
    }
    closeQuietly(lockChannel);
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      log.debug("closing the lock file failed", e);
    }
  }
}
