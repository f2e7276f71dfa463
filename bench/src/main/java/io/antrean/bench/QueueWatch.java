package io.antrean.bench;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.QueueStats;
import java.time.Duration;
import java.util.Locale;

/**
 * Follows one queue until the jobs a scenario stored there have finished. Used to learn when
 * workers, the bench's own or external, have run every job a scenario sent. It polls GetStats for
 * the unfinished jobs alone ({@code unfinished_only}), which costs the coordinator what is left to
 * run and not the finished jobs its store keeps (on PostgreSQL the full counts read every job of
 * the queue), and reads the full counts at the start and once the jobs have finished or the wait
 * ran out. Confined to the calling thread, except {@link #latest()} and {@link #finished()}, which
 * any thread may read.
 */
final class QueueWatch {
  /**
   * The shortest time between two polls; the end of a run with external workers is this precise.
   * The pause is longer while the end is still far (see {@link #projectedPause}), and then also
   * when a poll itself is slow (see {@link #pauseAfter}), because counting a large backlog costs
   * the coordinator CPU that the measured run needs.
   */
  static final Duration POLL_INTERVAL = Duration.ofMillis(20);

  /** Outside the final stretch, the polls take at most this share of the time. */
  static final int POLL_COST_FACTOR = 10;

  /**
   * When the jobs left would take at most this long at the rate seen so far, the projection alone
   * sets the pause, however long a poll takes: about a dozen polls, each cheap by then as the
   * backlog is nearly gone (a poll's time on a busy machine is mostly its wait for a core), and the
   * end is known to {@link #POLL_INTERVAL}.
   */
  static final Duration FINAL_STRETCH = Duration.ofSeconds(1);

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
  private volatile long finished;
  private long finishedAtNanos;

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

  /** The full counts, as of the start or the end of {@link #awaitFinished}. */
  QueueStats latest() {
    return latest;
  }

  /** Jobs that succeeded since the watch started, as of {@link #latest()}. */
  long succeeded() {
    return latest.getSucceeded() - baseline.getSucceeded();
  }

  /**
   * Jobs that succeeded, failed or were cancelled since the watch started, as of the latest poll:
   * while {@link #awaitFinished} polls, the jobs it waits for less those still unfinished; after
   * it, from the full counts.
   */
  long finished() {
    return finished;
  }

  /**
   * When the poll that found the jobs finished was answered, by {@link System#nanoTime()}; only
   * after {@link #awaitFinished} returned true.
   */
  long finishedAtNanos() {
    return finishedAtNanos;
  }

  /**
   * Polls until {@code jobs} stored since the watch started have finished or {@code wait} has
   * passed, then reads the full counts. The jobs must all be stored by the time it is called.
   *
   * @param check called before each poll; throws to abort, for example on a worker failure
   * @return whether they finished in time
   * @throws io.antrean.client.AntreanException if GetStats fails
   */
  boolean awaitFinished(long jobs, Duration wait, Runnable check) throws InterruptedException {
    return awaitFinished(jobs, 0, wait, check);
  }

  /**
   * As {@link #awaitFinished(long, Duration, Runnable)}, for {@code jobs} of which {@code
   * storedBefore} were already stored, unfinished, when the watch started. They are known to have
   * finished once the queue holds that many fewer unfinished jobs than it did then.
   */
  boolean awaitFinished(long jobs, long storedBefore, Duration wait, Runnable check)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + wait.toNanos();
    long unfinishedWhenDone = unfinishedIn(baseline) - storedBefore;
    long finishedAtStart = -1;
    while (true) {
      check.run();
      long asked = System.nanoTime();
      long unfinished = unfinishedIn(readUnfinished());
      long now = System.nanoTime();
      finished = Math.max(0, Math.min(jobs, unfinishedWhenDone + jobs - unfinished));
      if (unfinished <= unfinishedWhenDone) {
        finishedAtNanos = now;
        readAll();
        return true;
      }
      if (finishedAtStart < 0) {
        finishedAtStart = finished;
      }
      if (now - deadline >= 0) {
        readAll();
        return false;
      }
      Duration pause = pause(now - asked, jobs - finished, finished - finishedAtStart, now - start);
      Thread.sleep(pause.toMillis());
    }
  }

  /**
   * The pause before the next poll, after one that took {@code tookNanos}: the projection's (see
   * {@link #projectedPause}), and outside the {@link #FINAL_STRETCH} at least {@link #pauseAfter}.
   *
   * @param left jobs still to finish
   * @param progressed jobs finished since the first poll
   * @param elapsedNanos time since the first poll was sent
   */
  static Duration pause(long tookNanos, long left, long progressed, long elapsedNanos) {
    Duration projected = projectedPause(left, progressed, elapsedNanos);
    double nanosLeft = nanosLeft(left, progressed, elapsedNanos);
    boolean finalStretch = nanosLeft >= 0 && nanosLeft <= FINAL_STRETCH.toNanos();
    return finalStretch ? projected : longer(pauseAfter(tookNanos), projected);
  }

  /** The pause that a poll which took {@code tookNanos} calls for, outside the final stretch. */
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
    double nanosLeft = nanosLeft(left, progressed, elapsedNanos);
    if (nanosLeft < 0) {
      return POLL_INTERVAL;
    }
    long pause = (long) Math.min(nanosLeft / PROJECTION_SHARE, MAX_PROJECTED_PAUSE.toNanos());
    return longer(Duration.ofNanos(pause), POLL_INTERVAL);
  }

  /** The time the jobs left would take at the rate seen so far; -1 while there is no rate yet. */
  private static double nanosLeft(long left, long progressed, long elapsedNanos) {
    return progressed <= 0 || elapsedNanos <= 0 ? -1 : (double) left * elapsedNanos / progressed;
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

  /**
   * Reads the full counts into {@link #latest}, and the jobs finished since the start from them.
   */
  private void readAll() {
    latest = read();
    finished = finishedIn(latest) - finishedIn(baseline);
  }

  private QueueStats read() {
    return ofQueue(client.getStats(queue));
  }

  private QueueStats readUnfinished() {
    return ofQueue(client.getUnfinishedStats(queue));
  }

  private QueueStats ofQueue(GetStatsResponse response) {
    return response.getQueuesList().stream()
        .filter(stats -> stats.getQueue().equals(queue))
        .findFirst()
        .orElse(QueueStats.newBuilder().setQueue(queue).build());
  }

  private static long finishedIn(QueueStats stats) {
    return stats.getSucceeded() + stats.getFailed() + stats.getCancelled();
  }

  private static long unfinishedIn(QueueStats stats) {
    return stats.getPending() + stats.getScheduled() + stats.getRunning() + stats.getWaiting();
  }
}
