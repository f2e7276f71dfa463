package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.StoreUnavailableException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the groups the {@link SqliteWriter} committed: waits until the commit is durable ({@link
 * WalSync}), then completes each operation's future and tells the listener the queues where jobs
 * became ready. On the completer thread ({@code antrean-sqlite-completer}), so the writer thread
 * goes on with the next group while the disk syncs the last one; or, for a lone operation with
 * nothing else waiting, on the thread that committed it, one thread less before the answer.
 * Thread-safe.
 */
final class GroupAnswers {
  private static final Logger log = LoggerFactory.getLogger(GroupAnswers.class);

  private final WalSync sync;
  private final ExecutorService completer;
  private volatile Thread completerThread;
  private volatile Consumer<String> readyListener = queue -> {};

  GroupAnswers(WalSync sync) {
    this.sync = sync;
    this.completer =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "antrean-sqlite-completer");
              t.setDaemon(true);
              completerThread = t;
              return t;
            });
  }

  /** Whether {@code thread} is the completer, where waiting for a write would never end. */
  boolean isCompleterThread(Thread thread) {
    return thread == completerThread;
  }

  /** See {@link SqliteWriter#onDependentsReady}. */
  void onDependentsReady(Consumer<String> listener) {
    readyListener = listener;
  }

  /**
   * Answers a committed group once it is durable, or fails it if the sync failed.
   *
   * @param here on this thread rather than the completer's
   * @param synced runs once the sync has ended, well or not, before the group is answered
   */
  void answer(
      List<WriteTask<?>> group, GroupCommit.Committed committed, boolean here, Runnable synced) {
    List<WriteTask<?>> done = List.copyOf(group);
    Consumer<String> listener = readyListener;
    Runnable answer =
        () -> {
          try {
            sync.awaitDurable(committed.commit());
          } catch (StoreUnavailableException e) {
            synced.run();
            done.forEach(task -> task.fail(e));
            return;
          }
          synced.run();
          done.forEach(WriteTask::complete);
          committed.readyQueues().forEach(listener);
        };
    if (here) {
      answer.run();
      return;
    }
    try {
      completer.execute(answer);
    } catch (RejectedExecutionException e) {
      // A caller's group that committed while the store closed: the completer has stopped.
      answer.run();
    }
  }

  /** Fails the operations, none of which was kept, on the completer thread. */
  void failAll(List<WriteTask<?>> group, RuntimeException failure) {
    List<WriteTask<?>> failed = List.copyOf(group);
    try {
      completer.execute(() -> failed.forEach(task -> task.fail(failure)));
    } catch (RejectedExecutionException e) {
      failed.forEach(task -> task.fail(failure));
    }
  }

  /** Lets the completer finish what it was given, once the writer thread has ended. */
  void close() throws InterruptedException {
    completer.shutdown();
    if (!completer.awaitTermination(10, TimeUnit.SECONDS)) {
      log.warn("the SQLite completer did not finish within 10 s");
    }
  }
}
