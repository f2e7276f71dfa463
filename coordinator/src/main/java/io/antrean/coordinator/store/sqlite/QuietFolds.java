package io.antrean.coordinator.store.sqlite;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Folds the young jobs in quiet moments (no write waiting for the writer) once they have been young
 * for a while ({@link SqliteOptions#quietFoldAfter}), the oldest first and at most {@link
 * YoungLayer#QUIET_FOLD_JOBS} at a time: the young jobs a burst leaves behind, and those of a
 * steady trickle, go into the database in short folds while nothing waits, instead of in folds at
 * their bound in the middle of later traffic. {@link #runOnce} is one look; a daemon thread looks
 * every {@link #EVERY}.
 */
final class QuietFolds implements AutoCloseable {
  /** How often the daemon thread looks. */
  static final Duration EVERY = Duration.ofMillis(250);

  private static final Logger log = LoggerFactory.getLogger(QuietFolds.class);

  private final YoungLayer young;
  private final SqliteWriter writer;
  private final long afterNanos;
  private ScheduledExecutorService timer;

  QuietFolds(YoungLayer young, SqliteWriter writer, Duration after) {
    this.young = young;
    this.writer = writer;
    this.afterNanos = after.toNanos();
  }

  /** Starts looking every {@link #EVERY} on a daemon thread. */
  QuietFolds start() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "antrean-sqlite-quiet-folds");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(
        () -> runOnce(System.nanoTime()),
        EVERY.toMillis(),
        EVERY.toMillis(),
        TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * Folds the oldest young jobs, those young for long enough at {@code nowNanos} ({@link
   * System#nanoTime}), at most {@link YoungLayer#QUIET_FOLD_JOBS} of them, if there are any and no
   * write is waiting.
   *
   * @return whether it folded
   */
  boolean runOnce(long nowNanos) {
    long oldest = young.oldestYoungNanos();
    if (oldest == 0 || nowNanos - oldest < afterNanos || writer.queued() > 0) {
      return false;
    }
    try {
      young.askQuietFold(nowNanos - afterNanos);
      writer.await(
          () ->
              writer.submit(
                  WriteTask.apartFromJobs("fold the young jobs of a quiet moment", c -> null)));
      return true;
    } catch (RuntimeException e) {
      // Unavailable, overloaded or failed: the next look, or the next write, folds them.
      log.debug("a quiet fold of the young jobs failed", e);
      return false;
    }
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
