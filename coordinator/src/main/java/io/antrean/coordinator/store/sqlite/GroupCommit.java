package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.sqlite.NewJobRows.PlainEnqueue;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction of one group of writes on the {@link SqliteWriter}'s connection: every operation
 * inside its own savepoint, so a failing one rolls back only itself, then one commit for the group,
 * numbered by the {@link WalSync} that makes it durable afterwards. Consecutive Enqueues of jobs
 * that need nothing but their rows ({@link NewJobRows.PlainEnqueue}) share a savepoint and
 * multi-row inserts instead, unless that fails, when each runs on its own after all. Run by
 * whichever thread holds the connection, one at a time.
 */
final class GroupCommit {
  private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);

  private final CachedConnection connection;
  private final WalSync sync;
  @Nullable private final YoungLayer young;
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong operations = new AtomicLong();
  private final AtomicLong enqueuesStoredTogether = new AtomicLong();
  // In the group running; only the thread that holds the connection touches it.
  private int storedTogetherInGroup;
  private final ThreadLocal<Boolean> runningOperation = ThreadLocal.withInitial(() -> false);

  GroupCommit(CachedConnection connection, WalSync sync) {
    this(connection, sync, null);
  }

  /** With {@code young}, plain Enqueues keep their jobs young and every other operation folds. */
  GroupCommit(CachedConnection connection, WalSync sync, @Nullable YoungLayer young) {
    this.connection = connection;
    this.sync = sync;
    this.young = young;
  }

  /**
   * Fails once no group can be made durable: an fsync failed, or the young jobs' log failed to
   * write. Every group fails from then on, before it begins, until the store is reopened.
   *
   * @throws StoreUnavailableException saying which
   */
  void requireSound() {
    sync.requireSound();
    if (young != null) {
      young.requireSoundLog();
    }
  }

  /**
   * A committed group, not yet durable.
   *
   * @param readyQueues the queues where jobs became ready as a side effect of the changes
   * @param commit the commit's number for {@link WalSync#awaitDurable}
   */
  record Committed(List<String> readyQueues, long commit) {}

  /**
   * Runs the operations in one transaction and commits it (a group of young Enqueues alone runs
   * outside one, as it changes no row); each operation keeps its value or its failure for {@link
   * WriteTask#complete}.
   *
   * @return the queues where jobs became ready, and the commit's number
   * @throws Failed if the transaction could not begin or commit, or failed outside the operations
   *     themselves (nothing of it is kept, and the connection is out of the transaction again)
   */
  Committed run(List<WriteTask<?>> group) {
    try {
      requireSound();
    } catch (StoreUnavailableException e) {
      throw new Failed(e);
    }
    // A group of plain Enqueues whose jobs all stay young, the young jobs not full, changes no row:
    // it runs outside a transaction (a read it makes sees this connection's last commit, the only
    // writer's), so neither BEGIN IMMEDIATE nor COMMIT costs it anything. A quiet fold asked
    // meanwhile is left to the group of the task that asked it, which takes a transaction.
    boolean inTransaction =
        young == null || !young.accepting() || young.full() || !YoungEnqueues.takeWhole(group);
    long changesBefore;
    try {
      changesBefore = connection.totalChanges();
      if (inTransaction) {
        connection.execute("BEGIN IMMEDIATE");
      }
    } catch (SQLException e) {
      throw new Failed(SqliteDialect.INSTANCE.translate("beginning a transaction", e));
    }
    runningOperation.set(true);
    storedTogetherInGroup = 0;
    if (young != null) {
      young.beginGroup();
    }
    long commit;
    try {
      if (inTransaction) {
        for (int next = 0; next < group.size(); ) {
          next = runFrom(group, next);
        }
        connection.execute("COMMIT");
      } else {
        young.store(connection, group); // one run, the young jobs take it whole
      }
      // Before the number, so that the commit's fsync covers them.
      boolean logWritten = young != null && young.writeRecords();
      commit = sync.committed(wroteWal(changesBefore), logWritten);
      if (young != null) {
        young.committed(commit);
      }
    } catch (IOException e) {
      connection.takeReadyQueues(); // the group's answers fail: nobody hears of them
      log.error("the young jobs' log of a committed group could not be written", e);
      throw new Failed(new StoreUnavailableException("writing the young jobs' log", e));
    } catch (SQLException | RuntimeException e) {
      if (young != null) {
        young.abandoned();
      }
      abandon(inTransaction);
      log.error("SQLite group commit of {} operations failed", group.size(), e);
      throw new Failed(
          e instanceof SQLException sql
              ? SqliteDialect.INSTANCE.translate(
                  inTransaction ? "committing" : "storing young jobs", sql)
              : (RuntimeException) e);
    } finally {
      runningOperation.set(false);
    }
    commits.incrementAndGet();
    operations.addAndGet(group.size());
    enqueuesStoredTogether.addAndGet(storedTogetherInGroup);
    return new Committed(connection.takeReadyQueues(), commit);
  }

  /**
   * Whether the group just committed wrote to the WAL: it changed a row since {@code changesBefore}
   * ({@link CachedConnection#totalChanges}), or the count cannot be read.
   */
  private boolean wroteWal(long changesBefore) {
    try {
      return connection.totalChanges() != changesBefore;
    } catch (SQLException e) {
      log.warn("could not read SQLite's count of changes; the WAL is synced as if written", e);
      return true;
    }
  }

  /**
   * Runs the operation at {@code from}, with the plain Enqueues that follow it if it is one (as
   * many as young jobs take in one run, where they are kept: {@link YoungLayer#runEnd}); returns
   * where the next operation starts.
   */
  private int runFrom(List<WriteTask<?>> group, int from) throws SQLException {
    int end = from + 1;
    if (group.get(from).plainEnqueue() != null) {
      while (end < group.size() && group.get(end).plainEnqueue() != null) {
        end++;
      }
      end = young == null ? end : young.runEnd(group, from, end);
    }
    List<WriteTask<?>> run = group.subList(from, end);
    if (young != null) {
      young.foldOldestIfDue(connection);
      if (run.get(0).plainEnqueue() != null && young.accepting() && YoungEnqueues.fits(run)) {
        young.store(connection, run);
        return end;
      }
      if (young.ranYoung(connection, run.get(0))) {
        return end; // not a plain Enqueue: run is this task alone
      }
      if (run.get(0).touchesJobs()) {
        young.foldFirst(connection);
      }
    }
    if (run.size() == 1 || !storedTogether(run)) {
      for (WriteTask<?> task : run) {
        connection.execute("SAVEPOINT operation");
        if (!task.runIn(connection)) {
          connection.execute("ROLLBACK TO operation");
        }
        connection.execute("RELEASE operation");
      }
    }
    return end;
  }

  /**
   * Stores the jobs of consecutive plain Enqueues in shared statements, inside one savepoint. If
   * that fails, nothing of it is kept and it returns false: each Enqueue then runs on its own, so a
   * failing one fails alone.
   */
  private boolean storedTogether(List<WriteTask<?>> enqueues) throws SQLException {
    List<NewJob> jobs = new ArrayList<>();
    List<Instant> nows = new ArrayList<>();
    for (WriteTask<?> task : enqueues) {
      PlainEnqueue enqueue = task.plainEnqueue();
      jobs.addAll(enqueue.jobs());
      nows.addAll(Collections.nCopies(enqueue.jobs().size(), enqueue.now()));
    }
    connection.execute("SAVEPOINT operation");
    List<Job> stored;
    try {
      stored = NewJobRows.insert(connection, jobs, nows);
    } catch (SQLException | RuntimeException | Error e) {
      // Kept to the Enqueues that caused it, as an operation's own failure is.
      log.debug(
          "{} Enqueues in shared statements failed; each goes on its own", enqueues.size(), e);
      connection.execute("ROLLBACK TO operation");
      connection.execute("RELEASE operation");
      return false;
    }
    connection.execute("RELEASE operation");
    int from = 0;
    for (WriteTask<?> task : enqueues) {
      int count = task.plainEnqueue().jobs().size();
      task.stored(NewJobRows.asNew(stored.subList(from, from + count)));
      from += count;
    }
    storedTogetherInGroup += enqueues.size();
    return true;
  }

  /** Rolls back a transaction left open, if any, and forgets the queues it made ready. */
  private void abandon(boolean inTransaction) {
    if (inTransaction) {
      try {
        connection.execute("ROLLBACK");
      } catch (SQLException e) {
        log.debug("rollback after a failed group failed as well", e);
      }
    }
    connection.takeReadyQueues();
  }

  /**
   * Whether this thread is inside an operation of a group (where waiting for a write deadlocks).
   */
  boolean insideOperation() {
    return runningOperation.get();
  }

  /** Groups committed so far (each a transaction, but a group of young Enqueues alone). */
  long commits() {
    return commits.get();
  }

  /** Operations committed or rolled back so far in those groups. */
  long operations() {
    return operations.get();
  }

  /** Enqueues committed so far whose jobs were stored in statements shared with others. */
  long enqueuesStoredTogether() {
    return enqueuesStoredTogether.get();
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
