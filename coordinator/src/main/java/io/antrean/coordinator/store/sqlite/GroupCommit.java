package io.antrean.coordinator.store.sqlite;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction of one group of writes on the {@link SqliteWriter}'s connection: every operation
 * inside its own savepoint, so a failing one rolls back only itself, then one commit for the group,
 * numbered by the {@link WalSync} that makes it durable afterwards. Run by whichever thread holds
 * the connection, one at a time.
 */
final class GroupCommit {
  private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);

  private final CachedConnection connection;
  private final WalSync sync;
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong operations = new AtomicLong();
  private final ThreadLocal<Boolean> runningOperation = ThreadLocal.withInitial(() -> false);

  GroupCommit(CachedConnection connection, WalSync sync) {
    this.connection = connection;
    this.sync = sync;
  }

  /**
   * A committed group, not yet durable.
   *
   * @param readyQueues the queues where jobs became ready as a side effect of the changes
   * @param commit the commit's number for {@link WalSync#awaitDurable}
   */
  record Committed(List<String> readyQueues, long commit) {}

  /**
   * Runs the operations in one transaction and commits it; each operation keeps its value or its
   * failure for {@link WriteTask#complete}.
   *
   * @return the queues where jobs became ready, and the commit's number
   * @throws Failed if the transaction could not begin or commit, or failed outside the operations
   *     themselves (nothing of it is kept, and the connection is out of the transaction again)
   */
  Committed run(List<WriteTask<?>> group) {
    try {
      connection.execute("BEGIN IMMEDIATE");
    } catch (SQLException e) {
      throw new Failed(SqliteDialect.INSTANCE.translate("beginning a transaction", e));
    }
    runningOperation.set(true);
    long commit;
    try {
      for (WriteTask<?> task : group) {
        connection.execute("SAVEPOINT operation");
        if (!task.runIn(connection)) {
          connection.execute("ROLLBACK TO operation");
        }
        connection.execute("RELEASE operation");
      }
      connection.execute("COMMIT");
      commit = sync.committed();
    } catch (SQLException | RuntimeException e) {
      abandon();
      log.error("SQLite group commit of {} operations failed", group.size(), e);
      throw new Failed(
          e instanceof SQLException sql
              ? SqliteDialect.INSTANCE.translate("committing", sql)
              : (RuntimeException) e);
    } finally {
      runningOperation.set(false);
    }
    commits.incrementAndGet();
    operations.addAndGet(group.size());
    return new Committed(connection.takeReadyQueues(), commit);
  }

  /** Rolls back a transaction left open, if any, and forgets the queues it made ready. */
  private void abandon() {
    try {
      connection.execute("ROLLBACK");
    } catch (SQLException e) {
      log.debug("rollback after a failed group failed as well", e);
    }
    connection.takeReadyQueues();
  }

  /**
   * Whether this thread is inside an operation of a group (where waiting for a write deadlocks).
   */
  boolean insideOperation() {
    return runningOperation.get();
  }

  /** Transactions committed so far. */
  long commits() {
    return commits.get();
  }

  /** Operations committed or rolled back so far inside those transactions. */
  long operations() {
    return operations.get();
  }

  /** The group's transaction failed as a whole; {@link #failure} is what its operations get. */
  static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient RuntimeException failure;

    Failed(RuntimeException failure) {
      super(failure.getMessage(), failure, false, false);
      this.failure = failure;
    }

    RuntimeException failure() {
      return failure;
    }
  }
}
