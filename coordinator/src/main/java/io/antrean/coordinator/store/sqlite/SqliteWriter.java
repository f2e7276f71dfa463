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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.annotation.concurrent.GuardedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that writes, with group commit. Callers hand it operations and either block until
 * their operation is durable ({@link #execute}) or get a future ({@link #submit}). The thread takes
 * every operation waiting (up to a cap), runs them in one transaction, each inside its own
 * savepoint so a failing operation rolls back only itself, commits once (one fsync for the group),
 * and only then hands the group's results to the completer thread, which completes each future. A
 * group of one operation is completed on the writer thread itself: one call in flight then crosses
 * one thread less between its commit and its answer.
 *
 * <p>Callbacks attached to a future from {@link #submit} run on the completer thread, so the writer
 * goes on to the next group while they run, or, for a lone operation, on the writer thread. Either
 * way they must not block on another write: {@link #execute} called from the writer or the
 * completer thread throws instead of deadlocking.
 *
 * <p>Thread-safe. The connection belongs to the writer thread from {@link #start} on; the thread
 * closes it when it stops.
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
    if (current == thread || current == completerThread) {
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
    synchronized (submitLock) {
      if (closed) {
        return CompletableFuture.failedFuture(
            new StoreUnavailableException("the SQLite store is closed", null));
      }
      if (queue.size() >= maxQueued) {
        return CompletableFuture.failedFuture(
            new OverloadedException(
                "write_queue",
                maxQueued + " writes are waiting for the SQLite writer, its limit; retry later",
                RETRY_AFTER));
      }
      queue.add(task);
    }
    return task.result;
  }

  /** Operations waiting for the writer thread, for tests. */
  int queued() {
    return queue.size();
  }

  /** Transactions committed so far (each one fsync). */
  long commits() {
    return commits.get();
  }

  /** Operations committed or rolled back so far inside those transactions. */
  long operations() {
    return operations.get();
  }

  private void run() {
    List<Task<?>> group = new ArrayList<>(maxGroupOperations);
    boolean stopping = false;
    try {
      while (!stopping) {
        group.add(queue.take());
        queue.drainTo(group, maxGroupOperations - 1);
        stopping = group.remove(STOP);
        if (!group.isEmpty()) {
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

  private void runGroup(List<Task<?>> group) {
    try {
      connection.execute("BEGIN IMMEDIATE");
    } catch (SQLException e) {
      failAll(group, SqliteDialect.INSTANCE.translate("beginning a transaction", e));
      return;
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
      return;
    }
    commits.incrementAndGet();
    operations.addAndGet(group.size());
    List<Task<?>> done = List.copyOf(group);
    List<String> ready = connection.takeReadyQueues();
    Consumer<String> listener = readyListener;
    Runnable completion =
        () -> {
          done.forEach(Task::complete);
          ready.forEach(listener);
        };
    if (done.size() == 1 && ready.isEmpty()) {
      // A lone operation (one call in flight) is answered from here: handing it to the completer
      // would wake one more thread between the commit and the answer.
      completion.run();
    } else {
      completer.execute(completion);
    }
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
