package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.SessionWork;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A small fixed pool of read-only connections. Reads never queue behind the writer: in WAL mode
 * they see the last committed state while the writer works. Each read runs in its own read
 * transaction, so a read of several statements sees one snapshot.
 *
 * <p>Thread-safe.
 */
final class ReadConnections implements AutoCloseable {

  private static final long POLL_MILLIS = 100;

  private final BlockingQueue<CachedConnection> idle;
  private volatile boolean closed;

  private ReadConnections(List<CachedConnection> connections) {
    this.idle = new ArrayBlockingQueue<>(connections.size(), false, connections);
  }

  static ReadConnections open(SqliteFile file, int size) throws SQLException {
    List<CachedConnection> connections = new ArrayList<>(size);
    try {
      for (int i = 0; i < size; i++) {
        connections.add(file.openReader());
      }
    } catch (SQLException e) {
      connections.forEach(CachedConnection::close);
      throw e;
    }
    return new ReadConnections(connections);
  }

  /**
   * Runs the read on an idle connection, waiting for one if all are busy.
   *
   * @throws StoreUnavailableException if the store is closed, the read failed on I/O, or the caller
   *     was interrupted
   */
  <T> T read(String name, SessionWork<T> operation) {
    CachedConnection connection = borrow(name);
    try {
      connection.execute("BEGIN");
      try {
        return operation.run(connection);
      } finally {
        connection.execute("COMMIT");
      }
    } catch (SQLException e) {
      throw SqliteDialect.INSTANCE.translate(name, e);
    } finally {
      giveBack(connection);
    }
  }

  private CachedConnection borrow(String name) {
    try {
      while (true) {
        if (closed) {
          throw new StoreUnavailableException("the SQLite store is closed", null);
        }
        CachedConnection connection = idle.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
        if (connection != null) {
          return connection;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while waiting to " + name, e);
    }
  }

  private void giveBack(CachedConnection connection) {
    idle.add(connection);
    if (closed) {
      closeIdle();
    }
  }

  /** Closes idle connections now and busy ones as they come back. */
  @Override
  public void close() {
    closed = true;
    closeIdle();
  }

  private void closeIdle() {
    CachedConnection connection;
    while ((connection = idle.poll()) != null) {
      connection.close();
    }
  }
}
