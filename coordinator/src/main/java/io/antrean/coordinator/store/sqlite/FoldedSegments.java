package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.sqlite.young.YoungJobLog;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The young jobs' log segments that committed folds let go: each goes once its fold's commit is
 * durable, kept as a spare or deleted ({@link YoungJobLog#dropFolded}) on a thread of their own
 * ({@link #deletingApart}), not on the writer, where unlinking a segment of a few megabytes held
 * every write for up to 17 ms. The writer notes each fold ({@link #folded}) and hands over what
 * became durable ({@link #dropDurable}); not thread-safe beyond that hand-over, as both run on
 * whichever thread holds the writer's connection.
 */
final class FoldedSegments implements AutoCloseable {
  /** How long {@link #close} waits for the deletions handed over. */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(FoldedSegments.class);

  private final YoungJobLog youngLog;
  private final WalSync sync;
  private final ExecutorService deletions;
  // The committed folds, oldest first, as {the position each covers, its commit}.
  private final ArrayDeque<long[]> folds = new ArrayDeque<>();

  FoldedSegments(YoungJobLog youngLog, WalSync sync, ExecutorService deletions) {
    this.youngLog = youngLog;
    this.sync = sync;
    this.deletions = deletions;
  }

  /** Deletes on a daemon thread of its own, which {@link #close} ends. */
  static FoldedSegments deletingApart(YoungJobLog youngLog, WalSync sync) {
    return new FoldedSegments(
        youngLog,
        sync,
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "antrean-sqlite-young-log-deletes");
              t.setDaemon(true);
              return t;
            }));
  }

  /** A fold committed as {@code commit} covers the log up to {@code position}. */
  void folded(long position, long commit) {
    folds.addLast(new long[] {position, commit});
  }

  /**
   * Hands the segments of the folds whose commits are durable to the deleting thread; those of
   * folds not yet durable wait for a later call, not for their sync.
   */
  void dropDurable() {
    long upTo = -1;
    while (!folds.isEmpty() && sync.isDurable(folds.peekFirst()[1])) {
      upTo = folds.pollFirst()[0];
    }
    if (upTo < 0) {
      return;
    }
    long foldedUpTo = upTo;
    try {
      deletions.execute(() -> youngLog.dropFolded(foldedUpTo));
    } catch (RejectedExecutionException e) {
      // Closing: the next open deletes the segments wholly folded before it reads the rest.
      log.debug("folded segments of the young jobs' log left to the next open", e);
    }
  }

  /**
   * Waits, up to {@link #CLOSE_WAIT}, for the deletions handed over, and drops those not begun by
   * then; any thread.
   */
  @Override
  public void close() {
    deletions.shutdown();
    try {
      if (!deletions.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        // What is left the next open deletes unread; none is started after the close.
        deletions.shutdownNow();
        log.warn("folded segments of the young jobs' log still being deleted at the close");
      }
    } catch (InterruptedException e) {
      deletions.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
