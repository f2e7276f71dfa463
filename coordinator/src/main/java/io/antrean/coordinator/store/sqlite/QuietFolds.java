package io.antrean.coordinator.store.sqlite;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Folds the young jobs in quiet moments (no write waiting for the writer) once they have been young
 * for a while ({@link SqliteOptions#quietFoldAfter}), the oldest first, at most {@link
 * YoungLayer#QUIET_FOLD_JOBS} in a group: the young jobs a burst leaves behind, and those of a
 * steady trickle, go into the database in short folds instead of in folds at their bound in the
 * middle of later traffic. One look folds group after group while no other write comes, and stops
 * after the first fold that another write came during: under a trickle of traffic (a job every few
 * milliseconds, say) each fold holds the writer for milliseconds, and folds back to back would make
 * the trickle's writes wait for several in a row; one per look keeps that to one fold at most.
 * {@link #runOnce} is one look; a daemon thread looks every {@link #EVERY}.
 */
final class QuietFolds implements AutoCloseable {
  /** How often the daemon thread looks. */
  static final Duration EVERY = Duration.ofMillis(50);

  // The most folds one look makes: the bound's worth.
  private static final int MAX_FOLDS_PER_LOOK =
      YoungLayer.MAX_YOUNG_JOBS / YoungLayer.QUIET_FOLD_JOBS;

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
   * While no write is waiting, folds the oldest young jobs that are young for long enough at {@code
   * nowNanos} ({@link System#nanoTime}), each fold a group of its own of at most {@link
   * YoungLayer#QUIET_FOLD_JOBS}, so that a write that comes waits for one short fold at most; stops
   * after a fold that another write came during, and leaves the rest to the next look.
   *
   * @return whether it folded
   */
  boolean runOnce(long nowNanos) {
    boolean folded = false;
    for (int i = 0; i < MAX_FOLDS_PER_LOOK && writer.queued() == 0; i++) {
      long oldest = young.oldestYoungNanos();
      if (oldest == 0 || nowNanos - oldest <= afterNanos) {
        break;
      }
      long foldedBefore = young.foldedJobs();
      long operationsBefore = writer.groupCommit().operations();
      young.askQuietFold(nowNanos - afterNanos);
      try {
        writer.await(
            () ->
                writer.submit(
                    WriteTask.apartFromJobs("fold the young jobs of a quiet moment", c -> null)));
      } catch (RuntimeException e) {
        // Unavailable, overloaded or failed: the next look, or the next write, folds them.
        log.debug("a quiet fold of the young jobs failed", e);
        break;
      }
      if (young.foldedJobs() == foldedBefore) {
        break; // nothing folded (its group failed, say): the next look tries again
      }
      folded = true;
      if (writer.groupCommit().operations() - operationsBefore > 1) {
        break; // another write came during the fold: the next look goes on
      }
    }
    return folded;
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
