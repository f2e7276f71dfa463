package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.jdbc.JdbcDialect;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.TokenWakeups;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConnection;

/**
 * A JDBC connection that keeps its prepared statements, so the hot statements are parsed once per
 * connection instead of once per call.
 *
 * <p>Not thread-safe: one thread owns it at a time (the writer thread, or a reader that borrowed it
 * from {@link ReadConnections}). A statement returned by {@link #prepare} stays owned by this
 * connection: close its result sets, never the statement.
 */
final class CachedConnection implements JdbcSession, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CachedConnection.class);
  // Room for the chunk sizes of BatchWrites and NewJobRows (five statements in up to seven sizes)
  // and the rest.
  private static final int MAX_STATEMENTS = 128;

  private final Connection connection;
  private final Map<String, PreparedStatement> statements =
      new LinkedHashMap<>(32, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
          if (size() <= MAX_STATEMENTS) {
            return false;
          }
          closeQuietly(eldest.getValue());
          return true;
        }
      };

  private final Set<String> readyQueues = new TreeSet<>();
  @Nullable private final TokenWakeups tokenWakeups;

  CachedConnection(Connection connection) {
    this(connection, null);
  }

  /** A connection whose leases report rate-limit wake-ups to {@code tokenWakeups}. */
  CachedConnection(Connection connection, @Nullable TokenWakeups tokenWakeups) {
    this.connection = connection;
    this.tokenWakeups = tokenWakeups;
  }

  @Override
  public void leasableAt(String queue, Instant at) {
    if (tokenWakeups != null) {
      tokenWakeups.leasableAt(queue, at);
    }
  }

  /**
   * The rows inserted, updated or deleted through this connection since it opened, triggers'
   * included (SQLite's {@code sqlite3_total_changes}): a transaction that leaves it as it was wrote
   * no page.
   */
  long totalChanges() throws SQLException {
    return connection.unwrap(SQLiteConnection.class).getDatabase().total_changes();
  }

  /** The cached statement for this SQL, its parameters cleared; prepared on first use. */
  @Override
  public PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      statements.put(sql, statement);
    } else {
      statement.clearParameters();
    }
    return statement;
  }

  /** Remembered until the writer commits and hands them on ({@link #takeReadyQueues}). */
  @Override
  public void dependentsReady(String queue) {
    readyQueues.add(queue);
  }

  /** The queues {@link #dependentsReady} named since the last call; clears them. */
  List<String> takeReadyQueues() {
    if (readyQueues.isEmpty()) {
      return List.of();
    }
    List<String> queues = List.copyOf(readyQueues);
    readyQueues.clear();
    return queues;
  }

  /** Runs one statement that returns no rows (transaction control, pragmas, DDL). */
  void execute(String sql) throws SQLException {
    prepare(sql).execute();
  }

  /** The raw connection, for statements that must not be cached. */
  @Override
  public Connection connection() {
    return connection;
  }

  /** SQLite: every connection of this store speaks it. */
  @Override
  public JdbcDialect dialect() {
    return SqliteDialect.INSTANCE;
  }

  @Override
  public void close() {
    statements.values().forEach(CachedConnection::closeQuietly);
    statements.clear();
    try {
      connection.close();
    } catch (SQLException e) {
      log.warn("closing a SQLite connection failed", e);
    }
  }

  private static void closeQuietly(PreparedStatement statement) {
    try {
      statement.close();
    } catch (SQLException e) {
      log.debug("closing a cached statement failed", e);
    }
  }
}
