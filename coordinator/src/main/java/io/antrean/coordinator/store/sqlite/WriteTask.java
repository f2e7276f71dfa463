package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.jdbc.SessionWork;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;

/**
 * One write operation handed to the {@link SqliteWriter}, and what it produced inside its
 * transaction until the commit decides what its caller gets. Not thread-safe: the thread that holds
 * the writer's connection runs it; its future is completed once, after the commit.
 */
final class WriteTask<T> {
  private final String name;
  private final SessionWork<T> operation;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private T value;
  private Throwable failure;

  WriteTask(String name, SessionWork<T> operation) {
    this.name = name;
    this.operation = operation;
  }

  /** What the caller gets: completed by {@link #complete} or {@link #fail}. */
  CompletableFuture<T> result() {
    return result;
  }

  /** Runs the operation; false when it failed and its savepoint must be rolled back. */
  boolean runIn(CachedConnection connection) {
    try {
      value = operation.run(connection);
      return true;
    } catch (SQLException e) {
      failure = SqliteDialect.INSTANCE.translate(name, e);
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    return false;
  }

  /** After the commit: the operation's value, or what the operation threw. */
  void complete() {
    if (failure != null) {
      result.completeExceptionally(failure);
    } else {
      result.complete(value);
    }
  }

  /** The transaction as a whole failed, or never ran: nothing of the operation was kept. */
  void fail(Throwable cause) {
    result.completeExceptionally(cause);
  }
}
