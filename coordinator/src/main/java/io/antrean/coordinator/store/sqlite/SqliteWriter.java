package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.OverloadedException;
import io.antrean.coordinator.store.StoreFutures;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.SessionWork;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import javax.annotation.concurrent.GuardedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer, with group commit. Callers hand it operations and either block until their
 * operation is durable ({@link #execute}) or get a future ({@link #submit}). The writer thread
 * takes every operation waiting (up to a cap), runs them in one transaction, each inside its own
 * savepoint so a failing operation rolls back only itself, commits once (one fsync for the group),
 * and only then hands the group's results to the completer thread, which completes each future. A
 * group of one operation is completed on the writer thread itself.
 *
 * <p>An operation submitted while no other is waiting or running (one call in flight) is run by its
 * caller, on the caller's thread, as a group of its own, and answered there: the hand-offs to the
 * writer thread and back would be most of its time on a small machine. Every operation submitted
 * meanwhile queues behind it, so the order of operations is the order the writer thread would have
 * kept, and only one thread uses the connection at a time ({@code connectionLock}).
 *
 * <p>Callbacks attached to a future from {@link #submit} run on the completer thread, so the writer
 * goes on to the next group while they run, or, for a group of one, on the thread that ran it (the
 * writer's or the caller's). Either way they must not block on another write: {@link #execute}
 * called from the writer or the completer thread, or from an operation being run, throws instead of
 * deadlocking.
 *
 * <p>Thread-safe. The connection is used only by the thread that holds {@code connectionLock}; the
 * writer thread closes it when it stops.
 */
final class SqliteWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SqliteWriter.class);

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  private static final Task<Void> STOP = new Task<>("stop", connection -> null);

  private final CachedConnection connection;
  private final int maxGroupOperations;
  private final int maxQueued;
  private final BlockingQueue<Task<?>> queue = new LinkedBlockingQueue<>();
  private final Object submitLock = new Object();
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong operations = new AtomicLong();
  private final AtomicLong committedByCallers = new AtomicLong();
  // Operations submitted and not yet committed or failed; raised only under submitLock.
  private final AtomicInteger inFlight = new AtomicInteger();
  // Operations of the group being run, for queued().
  private final AtomicInteger running = new AtomicInteger();
  // Held by whichever thread runs a group on the connection: the writer thread, or a caller.
  private final ReentrantLock connectionLock = new ReentrantLock();
  private final Thread thread;
  private final ExecutorService completer;
  private volatile Thread completerThread;
  private volatile Consumer<String> readyListener = queue -> {};

  @GuardedBy("submitLock")
  private boolean closed;

  private SqliteWriter(CachedConnection connection, int maxGroupOperations, int maxQueued) {
    this.connection = connection;
    this.maxGroupOperations = maxGroupOperations;
    this.maxQueued = maxQueued;
    this.thread = new Thread(this::run, "antrean-sqlite-writer");
    thread.setDaemon(true);
    this.completer =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "antrean-sqlite-completer");
              t.setDaemon(true);
              completerThread = t;
              return t;
            });
  }

  /**
   * Starts the writer thread, which owns {@code connection} from now on.
   *
   * @param maxQueued operations waiting at most; {@link #submit} refuses more
   */
  static SqliteWriter start(CachedConnection connection, int maxGroupOperations, int maxQueued) {
    SqliteWriter writer = new SqliteWriter(connection, maxGroupOperations, maxQueued);
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
   * throws what failed it, unwrapped. The thread is checked before {@code write} runs, so a refused
   * call queues nothing.
   *
   * @throws IllegalStateException if called from the writer or the completer thread, where waiting
   *     would never end; {@code write} is then not called
   * @throws StoreUnavailableException if interrupted while waiting (the change may still commit)
   */
  <T> T await(Supplier<CompletableFuture<T>> write) {
    Thread current = Thread.currentThread();
    if (current == thread || current == completerThread || connectionLock.isHeldByCurrentThread()) {
      throw new IllegalStateException(
          "waiting for the SQLite writer on its own thread would never end; use submit");
    }
    return StoreFutures.join(write.get());
  }

  /**
   * Queues the operation for the next group commit. The future completes, on the completer thread,
   * once that group is durable: with the operation's value, with whatever the operation threw (its
   * changes rolled back), or with {@link StoreUnavailableException} if the store is closed or the
   * commit failed. Never blocks: with {@code maxQueued} operations already waiting, the future
   * fails at once with {@link OverloadedException} and the operation never runs.
   */
  <T> CompletableFuture<T> submit(String name, SessionWork<T> operation) {
    Task<T> task = new Task<>(name, operation);
    boolean runHere;
    synchronized (submitLock) {
      if (closed) {
        return CompletableFuture.failedFuture(
            new StoreUnavailableException("the SQLite store is closed", null));
      }
      if (queued() >= maxQueued) {
        return CompletableFuture.failedFuture(
            new OverloadedException(
                "write_queue",
                maxQueued + " writes are waiting for the SQLite writer, its limit; retry later",
                RETRY_AFTER));
      }
      // Nothing else submitted is waiting or running: every later operation queues behind this
      // one, so running it here keeps the order the writer thread would have kept.
      runHere = inFlight.get() == 0 && connectionLock.tryLock();
      inFlight.incrementAndGet();
      if (!runHere) {
        queue.add(task);
      }
    }
    if (runHere) {
      committedByCallers.incrementAndGet();
      runHeld(List.of(task), true);
    }
    return task.result;
  }

  /** Operations submitted and not yet being run. */
  int queued() {
    return inFlight.get() - running.get();
  }

  /** Whether {@link #close} has begun (or the writer thread failed): submits are refused. */
  boolean refusesNewWork() {
    synchronized (submitLock) {
      return closed;
    }
  }

  /** Transactions committed so far (each one fsync). */
  long commits() {
    return commits.get();
  }

  /** Operations committed or rolled back so far inside those transactions. */
  long operations() {
    return operations.get();
  }

  /** Groups (each of one operation) its caller ran on its own thread, the writer being idle. */
  long committedByCallers() {
    return committedByCallers.get();
  }

  private void run() {
    List<Task<?>> group = new ArrayList<>(maxGroupOperations);
    boolean stopping = false;
    try {
      while (!stopping) {
        Task<?> first = queue.take();
        // Taken before the rest are drained: what queued while a caller ran joins this group.
        connectionLock.lock();
        group.add(first);
        queue.drainTo(group, maxGroupOperations - 1);
        stopping = group.remove(STOP);
        if (group.isEmpty()) {
          connectionLock.unlock();
        } else {
          runHeld(group, group.size() == 1);
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
      connectionLock.lock();
      try {
        connection.close();
      } finally {
        connectionLock.unlock();
      }
    }
  }

  /**
   * Runs the group in one transaction with {@link #connectionLock} held, which it releases; then
   * answers the group, on this thread when {@code answerHere} (and nothing else became ready),
   * otherwise on the completer thread. The lock is released before any answer runs, so an answer
   * may submit again.
   */
  private void runHeld(List<Task<?>> group, boolean answerHere) {
    Runnable answers;
    running.set(group.size());
    try {
      answers = runGroup(group);
    } finally {
      connectionLock.unlock();
      inFlight.addAndGet(-group.size());
      running.set(0);
    }
    if (answers == null) {
      return;
    }
    if (answerHere) {
      // Handing a lone operation to the completer would wake one more thread between its commit
      // and its answer.
      answers.run();
    } else {
      completer.execute(answers);
    }
  }

  /**
   * Runs the group in one transaction; returns what answers it, or null when the group failed (its
   * futures are then failed on the completer thread).
   */
  @Nullable
  private Runnable runGroup(List<Task<?>> group) {
    try {
      connection.execute("BEGIN IMMEDIATE");
    } catch (SQLException e) {
      failAll(group, SqliteDialect.INSTANCE.translate("beginning a transaction", e));
      return null;
    }
    try {
      for (Task<?> task : group) {
        connection.execute("SAVEPOINT operation");
        if (!task.runIn(connection)) {
          connection.execute("ROLLBACK TO operation");
        }
        connection.execute("RELEASE operation");
      }
      connection.execute("COMMIT");
    } catch (SQLException e) {
      rollbackQuietly();
      connection.takeReadyQueues();
      log.error("SQLite group commit of {} operations failed", group.size(), e);
      failAll(group, SqliteDialect.INSTANCE.translate("committing", e));
      return null;
    }
    commits.incrementAndGet();
    operations.addAndGet(group.size());
    List<Task<?>> done = List.copyOf(group);
    List<String> ready = connection.takeReadyQueues();
    Consumer<String> listener = readyListener;
    return () -> {
      done.forEach(Task::complete);
      ready.forEach(listener);
    };
  }

  /**
   * Hears, after each commit, the queues where jobs became PENDING as a side effect of the group's
   * changes ({@link CachedConnection#dependentsReady}); on the completer thread.
   */
  void onDependentsReady(Consumer<String> listener) {
    readyListener = listener;
  }

  private void rollbackQuietly() {
    try {
      connection.execute("ROLLBACK");
    } catch (SQLException e) {
      log.debug("rollback after a failed group failed as well", e);
    }
  }

  private void failQueued(List<Task<?>> group) {
    synchronized (submitLock) {
      closed = true;
    }
    queue.drainTo(group);
    group.remove(STOP);
    failAll(group, new StoreUnavailableException("the SQLite writer was stopped", null));
  }

  private void failAll(List<Task<?>> group, RuntimeException failure) {
    List<Task<?>> failed = List.copyOf(group);
    completer.execute(() -> failed.forEach(task -> task.result.completeExceptionally(failure)));
  }

  /**
   * Stops taking operations, lets the writer finish every operation already queued, waits for the
   * thread to end and closes the connection.
   */
  @Override
  public void close() {
    synchronized (submitLock) {
      if (!closed) {
        closed = true;
        queue.add(STOP);
      }
    }
    try {
      thread.join();
      completer.shutdown();
      if (!completer.awaitTermination(10, TimeUnit.SECONDS)) {
        log.warn("the SQLite completer did not finish within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("interrupted while waiting for the SQLite writer to stop");
    }
  }

  /** One queued operation and what it produced inside the transaction. */
  private static final class Task<T> {
    private final String name;
    private final SessionWork<T> operation;
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private T value;
    private Throwable failure;

    Task(String name, SessionWork<T> operation) {
      this.name = name;
      this.operation = operation;
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

    void complete() {
      if (failure != null) {
        result.completeExceptionally(failure);
      } else {
        result.complete(value);
      }
    }
  }
}
