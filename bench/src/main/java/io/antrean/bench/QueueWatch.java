package io.antrean.bench;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.QueueStats;
import java.time.Duration;
import java.util.Locale;

/**
 * Follows one queue's counts through GetStats until a number of jobs has finished there. Used to
 * learn when workers, the bench's own or external, have run every job a scenario sent. Confined to
 * the calling thread, except {@link #latest()}, which any thread may read.
 */
final class QueueWatch {
  /**
   * The shortest time between two GetStats calls; the end of a run with external workers is this
   * precise. The pause is longer when GetStats itself is slow (see {@link #pauseAfter}), because
   * counting a large queue costs the coordinator CPU that the measured run needs, and while the end
   * is still far (see {@link #projectedPause}).
   */
  static final Duration POLL_INTERVAL = Duration.ofMillis(20);

  /** GetStats may take at most this share of the time while a run is being watched. */
  static final int POLL_COST_FACTOR = 10;

  /**
   * While far from the end, the pause is this fraction of the time the jobs left would take at the
   * rate seen so far: the polls thin out where they cannot end the run and come every {@link
   * #POLL_INTERVAL} again as it nears its end, which a rate up to this many times faster than the
   * one seen still does not overshoot.
   */
  static final int PROJECTION_SHARE = 4;

  /** The longest pause a projection gives. */
  static final Duration MAX_PROJECTED_PAUSE = Duration.ofMillis(250);

  private final AntreanClient client;
  private final String queue;
  private final QueueStats baseline;
  private volatile QueueStats latest;

  /** Reads the queue's counts now; later counts are taken relative to these. */
  QueueWatch(AntreanClient client, String queue) {
    this.client = client;
    this.queue = queue;
    this.baseline = read();
    this.latest = baseline;
  }

  /** The queue's counts when this watch started. */
  QueueStats baseline() {
    return baseline;
  }

  /** The counts of the latest poll. */
  QueueStats latest() {
    return latest;
  }

  /** Jobs that succeeded since the watch started, as of the latest poll. */
  long succeeded() {
    return latest.getSucceeded() - baseline.getSucceeded();
  }

  /**
   * Jobs that succeeded, failed or were cancelled since the watch started, as of the latest poll.
   */
  long finished() {
    return finishedIn(latest) - finishedIn(baseline);
  }

  /**
   * Polls until {@code jobs} have finished since the watch started or {@code wait} has passed.
   *
   * @param check called before each poll; throws to abort, for example on a worker failure
   * @return whether they finished in time
   * @throws io.antrean.client.AntreanException if GetStats fails
   */
  boolean awaitFinished(long jobs, Duration wait, Runnable check) throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + wait.toNanos();
    long finishedAtStart = -1;
    while (true) {
      check.run();
      long asked = System.nanoTime();
      latest = read();
      long finished = finished();
      if (finished >= jobs) {
        return true;
      }
      if (finishedAtStart < 0) {
        finishedAtStart = finished;
      }
      long now = System.nanoTime();
      if (now - deadline >= 0) {
        return false;
      }
      Duration pause =
          longer(
              pauseAfter(now - asked),
              projectedPause(jobs - finished, finished - finishedAtStart, now - start));
      Thread.sleep(pause.toMillis());
    }
  }

  /** The pause before the next GetStats, after one that took {@code tookNanos}. */
  static Duration pauseAfter(long tookNanos) {
    return longer(Duration.ofNanos(tookNanos * POLL_COST_FACTOR), POLL_INTERVAL);
  }

  /**
   * The pause that the rate seen so far allows: {@value #PROJECTION_SHARE}th of the time the jobs
   * left would take at that rate, at most {@link #MAX_PROJECTED_PAUSE}; {@link #POLL_INTERVAL}
   * while no job has finished yet.
   *
   * @param left jobs still to finish
   * @param progressed jobs finished since the first poll
   * @param elapsedNanos time since the first poll was sent
   */
  static Duration projectedPause(long left, long progressed, long elapsedNanos) {
    if (progressed <= 0 || elapsedNanos <= 0) {
      return POLL_INTERVAL;
    }
    double nanosLeft = (double) left * elapsedNanos / progressed;
    long pause = (long) Math.min(nanosLeft / PROJECTION_SHARE, MAX_PROJECTED_PAUSE.toNanos());
    return longer(Duration.ofNanos(pause), POLL_INTERVAL);
  }

  private static Duration longer(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /**
   * The latest counts for messages, those that finish counted since the watch started: {@code
   * pending 3, running 1, succeeded 290, failed 0, cancelled 0}.
   */
  String describeLatest() {
    return String.format(
        Locale.ROOT,
        "pending %d, running %d, succeeded %d, failed %d, cancelled %d",
        latest.getPending(),
        latest.getRunning(),
        latest.getSucceeded() - baseline.getSucceeded(),
        latest.getFailed() - baseline.getFailed(),
        latest.getCancelled() - baseline.getCancelled());
  }

  private QueueStats read() {
    return client.getStats(queue).getQueuesList().stream()
        .filter(stats -> stats.getQueue().equals(queue))
        .findFirst()
        .orElse(QueueStats.newBuilder().setQueue(queue).build());
  }

  private static long finishedIn(QueueStats stats) {
    return stats.getSucceeded() + stats.getFailed() + stats.getCancelled();
  }
}
