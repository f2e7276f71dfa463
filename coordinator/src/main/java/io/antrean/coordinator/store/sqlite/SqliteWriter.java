package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.OverloadedException;
import io.antrean.coordinator.store.StoreFutures;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.SessionWork;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import javax.annotation.concurrent.GuardedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that writes, with group commit. Callers hand it operations and either block until
 * their operation is durable ({@link #execute}) or get a future ({@link #submit}). The thread takes
 * every operation waiting (up to a cap), runs them in one transaction, each inside its own
 * savepoint so a failing operation rolls back only itself, commits once, and hands the results to
 * the completer thread, which waits for the WAL's fsync ({@link WalSync}) and then completes each
 * future, while the writer thread goes on with the next group; a group of one is synced and
 * completed on the writer thread itself, one thread less between commit and answer.
 *
 * <p>In a quiet moment (nothing queued, running or syncing, nothing written for {@code
 * callerRunsAfterIdle}) an operation is run, committed and answered on its caller's own thread
 * (unless submitted {@link #amongOthers}) instead, with no hand-off to the writer thread and back;
 * what is submitted meanwhile queues for the writer thread, which waits for the caller to let go of
 * the connection, so writes still commit in submission order. Under load writes come closer
 * together than that and the writer groups them.
 *
 * <p>Callbacks on a future from {@link #submit} run on the completer thread, or for a lone
 * operation on the thread that ran it; they must not block on another write: {@link #execute}
 * called from the writer or completer thread, or inside an operation, throws instead of
 * deadlocking.
 *
 * <p>Thread-safe. One thread at a time holds the connection; the writer thread closes it at stop.
 */
final class SqliteWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SqliteWriter.class);

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  private static final WriteTask<Void> STOP = new WriteTask<>("stop", connection -> null);

  private final CachedConnection connection;
  private final int maxGroupOperations;
  private final int maxQueued;
  private final BlockingQueue<WriteTask<?>> queue = new LinkedBlockingQueue<>();
  private final Object submitLock = new Object();
  private final GroupCommit groupCommit;
  private final WalSync sync;
  private final AtomicLong committedByCallers = new AtomicLong();
  private final long callerRunsAfterIdleNanos;
  private final Thread thread;
  private final GroupAnswers answers;

  private final SubmitScopes scopes = new SubmitScopes();

  @GuardedBy("submitLock")
  private boolean closed;

  /** Whether a thread (the writer's or a caller's) holds the connection. */
  @GuardedBy("submitLock")
  private boolean connectionHeld;

  /** Operations handed to the writer thread (queued, or taken and waiting for the connection). */
  @GuardedBy("submitLock")
  private int handedOver;

  /** Commits made whose sync has not ended yet (a caller's or the completer's). */
  @GuardedBy("submitLock")
  private int commitsToSync;

  /** System.nanoTime() when the connection was last let go. */
  @GuardedBy("submitLock")
  private long idleSinceNanos;

  private SqliteWriter(
      CachedConnection connection,
      WalSync sync,
      int maxGroupOperations,
      int maxQueued,
      Duration callerRunsAfterIdle,
      @Nullable YoungLayer young) {
    this.connection = connection;
    this.sync = sync;
    this.groupCommit = new GroupCommit(connection, sync, young);
    this.maxGroupOperations = maxGroupOperations;
    this.maxQueued = maxQueued;
    this.callerRunsAfterIdleNanos = callerRunsAfterIdle.toNanos();
    this.idleSinceNanos = System.nanoTime();
    this.thread = new Thread(this::run, "antrean-sqlite-writer");
    thread.setDaemon(true);
    this.answers = new GroupAnswers(sync);
  }

  /**
   * Starts the writer thread, which owns {@code connection} from now on.
   *
   * @param maxQueued operations waiting at most; {@link #submit} refuses more
   * @param callerRunsAfterIdle how long nothing must have been written before an operation runs on
   *     its caller's thread instead of the writer's
   * @param young the young jobs' layer ({@link YoungLayer}), or null
   */
  static SqliteWriter start(
      CachedConnection connection,
      WalSync sync,
      int maxGroupOperations,
      int maxQueued,
      Duration callerRunsAfterIdle,
      @Nullable YoungLayer young) {
    SqliteWriter writer =
        new SqliteWriter(
            connection, sync, maxGroupOperations, maxQueued, callerRunsAfterIdle, young);
    writer.thread.start();
    return writer;
  }

  /**
   * Runs the operation in the next group commit and waits until that group is durable.
   *
   * @return the operation's value
   * @throws StoreUnavailableException if the store is closed, the commit failed, or the caller was
   *     interrupted while waiting (the operation may then still commit)
   * @throws IllegalStateException if called from the writer or the completer thread, where waiting
   *     would never end; the operation is then not queued
   * @throws RuntimeException whatever the operation threw; its changes were rolled back
   */
  <T> T execute(String name, SessionWork<T> operation) {
    return await(() -> submit(name, operation));
  }

  /**
   * Starts a write ({@link #submit}, or a future derived from it) and waits for its value, or
   * throws what failed it, unwrapped; from the writer or the completer thread, where waiting would
   * never end, throws {@link IllegalStateException} before {@code write} runs.
   *
   * @throws StoreUnavailableException if interrupted while waiting (the change may still commit)
   */
  <T> T await(Supplier<CompletableFuture<T>> write) {
    if (!mayWait()) {
      throw new IllegalStateException(
          "waiting for the SQLite writer on its own thread would never end; use submit");
    }
    return StoreFutures.join(write.get());
  }

  /** Whether this thread may wait for a write: not the writer's or the completer's, not inside. */
  boolean mayWait() {
    Thread current = Thread.currentThread();
    return current != thread
        && !answers.isCompleterThread(current)
        && !groupCommit.insideOperation();
  }

  /**
   * Queues the operation for the next group commit, or runs it on this thread in a quiet moment
   * (not inside {@link #amongOthers}). The future completes once its group is durable: with the
   * operation's value, with whatever the operation threw (its changes rolled back), or with {@link
   * StoreUnavailableException} if the store is closed or the commit failed. Never waits for other
   * writes: with {@code maxQueued} operations already waiting, the future fails at once with {@link
   * OverloadedException} and the operation never runs. Inside {@link #together} on this thread, the
   * operation waits for the others submitted there instead.
   */
  <T> CompletableFuture<T> submit(String name, SessionWork<T> operation) {
    return submit(new WriteTask<>(name, operation));
  }

  /** {@link #submit(String, SessionWork)} for a task made beforehand. */
  <T> CompletableFuture<T> submit(WriteTask<T> task) {
    if (!task.mayBeGathered() || !scopes.gathered(task)) {
      hand(List.of(task));
    }
    return task.result();
  }

  /**
   * Runs {@code submissions} and returns what it returns, and hands the writes it submits on this
   * thread to the writer as one unit: they commit in one group, in the order submitted (unless they
   * outnumber a group's cap), and are refused together if the queue has no room for all of them.
   * Inside, {@link #submit} returns its future without running anything. Nested calls join the
   * outermost.
   */
  <T> T together(Supplier<T> submissions) {
    return scopes.together(submissions, this::hand);
  }

  /**
   * Runs {@code submissions}, writes that should not hold this thread (a caller with more of them
   * in flight, or a large one): even in a quiet moment they queue for the writer thread, so this
   * thread goes back at once to reading what follows ({@link SubmitScopes}).
   */
  <T> T amongOthers(Supplier<T> submissions) {
    return scopes.amongOthers(submissions);
  }

  /** Queues the tasks for the writer thread, or runs them as one group on this thread. */
  private void hand(List<WriteTask<?>> tasks) {
    synchronized (submitLock) {
      if (closed) {
        StoreUnavailableException closedStore =
            new StoreUnavailableException("the SQLite store is closed", null);
        tasks.forEach(task -> task.fail(closedStore));
        return;
      }
      if (connectionHeld
          || !scopes.mayRunOnCaller()
          || handedOver > 0
          || commitsToSync > 0
          || System.nanoTime() - idleSinceNanos < callerRunsAfterIdleNanos) {
        if (queue.size() + tasks.size() > maxQueued) {
          OverloadedException overloaded =
              new OverloadedException(
                  "write_queue",
                  maxQueued + " writes are waiting for the SQLite writer, its limit; retry later",
                  RETRY_AFTER);
          tasks.forEach(task -> task.fail(overloaded));
          return;
        }
        // The writer thread may take the first at once, but drains the rest under this lock.
        queue.addAll(tasks);
        handedOver += tasks.size();
        return;
      }
      connectionHeld = true;
    }
    // A quiet moment: this thread runs the operations as one group.
    committedByCallers.incrementAndGet();
    runGroup(tasks);
  }

  /**
   * Lets go of the connection, to a writer thread that may be waiting for it; {@code toSync} when
   * the commit just made is still to be synced ({@link #synced} follows).
   */
  private void releaseConnection(boolean toSync) {
    synchronized (submitLock) {
      connectionHeld = false;
      idleSinceNanos = System.nanoTime();
      if (toSync) {
        commitsToSync++;
      }
      submitLock.notifyAll();
    }
  }

  /** A commit's sync has ended, well or not. */
  private void synced() {
    synchronized (submitLock) {
      commitsToSync--;
      idleSinceNanos = System.nanoTime();
      submitLock.notifyAll();
    }
  }

  /**
   * Waits until no caller holds the connection, holds it for the writer thread, and adds what else
   * is queued to the group (up to the cap): no caller runs a write before those.
   */
  private void holdConnection(List<WriteTask<?>> group) throws InterruptedException {
    synchronized (submitLock) {
      while (connectionHeld) {
        submitLock.wait();
      }
      connectionHeld = true;
      queue.drainTo(group, maxGroupOperations - group.size());
      handedOver -= group.size();
    }
  }

  /** Operations waiting for the writer thread, for tests. */
  int queued() {
    return queue.size();
  }

  /** Whether {@link #close} has begun, for tests. */
  boolean refusesNewWork() {
    synchronized (submitLock) {
      return closed;
    }
  }

  /** Transactions committed on a caller's thread so far, for tests. */
  long committedByCallers() {
    return committedByCallers.get();
  }

  /** The group commits: their counts, and whether they can still be made durable. */
  GroupCommit groupCommit() {
    return groupCommit;
  }

  private void run() {
    List<WriteTask<?>> group = new ArrayList<>(maxGroupOperations);
    boolean stopping = false;
    try {
      while (!stopping) {
        group.add(queue.take());
        holdConnection(group);
        stopping = group.remove(STOP);
        if (group.isEmpty()) {
          releaseConnection(false);
        } else {
          runGroup(group);
        }
        group.clear();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("SQLite writer interrupted; failing the operations still queued");
      failQueued(group);
    } catch (RuntimeException | Error e) {
      log.error("SQLite writer failed; failing the operations still queued", e);
      failQueued(group);
      throw e;
    } finally {
      connection.close();
    }
  }

  /**
   * Runs the group in one transaction on the calling thread, which holds the connection and lets go
   * of it once the transaction has ended (before a committed group's futures are completed).
   */
  private void runGroup(List<WriteTask<?>> group) {
    GroupCommit.Committed committed;
    try {
      committed = groupCommit.run(group);
    } catch (GroupCommit.Failed e) {
      releaseConnection(false);
      failAll(group, e.failure());
      return;
    } catch (RuntimeException | Error e) {
      releaseConnection(false);
      throw e;
    }
    releaseConnection(true);
    // A lone operation with nothing else waiting (one call in flight) is answered from here.
    boolean here = group.size() == 1 && committed.readyQueues().isEmpty() && queue.isEmpty();
    answers.answer(group, committed, here, this::synced);
  }

  /**
   * Hears, after each commit, the queues where jobs became PENDING as a side effect of the group's
   * changes ({@link CachedConnection#dependentsReady}); on the completer thread.
   */
  void onDependentsReady(Consumer<String> listener) {
    answers.onDependentsReady(listener);
  }

  private void failQueued(List<WriteTask<?>> group) {
    synchronized (submitLock) {
      closed = true;
    }
    queue.drainTo(group);
    group.remove(STOP);
    failAll(group, new StoreUnavailableException("the SQLite writer was stopped", null));
  }

  private void failAll(List<WriteTask<?>> group, RuntimeException failure) {
    answers.failAll(group, failure);
  }

  /**
   * Stops taking operations, lets the writer finish every operation already queued, waits for the
   * thread to end and closes the connection and the WAL's sync.
   */
  @Override
  public void close() {
    synchronized (submitLock) {
      if (!closed) {
        closed = true;
        queue.add(STOP);
        handedOver++;
      }
    }
    try {
      thread.join();
      answers.close();
      // A caller that committed in a quiet moment may still be syncing its commit.
      synchronized (submitLock) {
        while (commitsToSync > 0) {
          submitLock.wait();
        }
      }
      sync.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("interrupted while waiting for the SQLite writer to stop");
    }
  }
}
