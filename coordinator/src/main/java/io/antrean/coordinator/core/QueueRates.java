package io.antrean.coordinator.core;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.Nullable;

/**
 * Per-queue counts of jobs enqueued, started, succeeded and failed per minute over the last hour,
 * so a dashboard has a full chart the moment it opens. One ring of {@value #MINUTES} minutes per
 * queue; a slot is cleared when its minute comes round again. Counts what this coordinator saw
 * since it started.
 *
 * <p>Time is a parameter ({@link #count}, {@link #snapshot}); {@link #events(Clock)} adapts it to
 * the scheduling core's events. Thread-safe: each queue's ring has its own lock.
 */
public final class QueueRates {
  /** How many minutes are kept, the current one included. */
  public static final int MINUTES = 60;

  /** What is counted. */
  public enum Kind {
    ENQUEUED,
    STARTED,
    SUCCEEDED,
    /** A failed attempt: a handler failure (retried or not) or an expired lease. */
    FAILED
  }

  /** One minute's counts; {@code start} is the minute's first instant. */
  public record Minute(Instant start, long enqueued, long started, long succeeded, long failed) {}

  /** One queue's last hour, oldest minute first, ending with the current minute. */
  public record Series(String queue, List<Minute> minutes) {}

  private final Map<String, Ring> rings = new ConcurrentHashMap<>();

  /** Counts one event of {@code queue} at {@code now}. */
  public void count(String queue, Kind kind, Instant now) {
    rings.computeIfAbsent(queue, q -> new Ring()).add(kind, now.getEpochSecond() / 60);
  }

  /**
   * The queues with any count in the hour up to {@code now}, ordered by name.
   *
   * @param queue only this queue, or every queue when null
   * @throws ValidationException (field queue) for a bad queue name
   */
  public List<Series> snapshot(@Nullable String queue, Instant now) {
    if (queue != null) {
      new Violations().problem(Names.queueProblem(queue), "queue").throwIfAny();
    }
    long current = now.getEpochSecond() / 60;
    List<Series> out = new ArrayList<>();
    for (Map.Entry<String, Ring> r : rings.entrySet()) {
      if (queue != null && !queue.equals(r.getKey())) {
        continue;
      }
      List<Minute> minutes = r.getValue().minutes(current);
      if (minutes.stream().anyMatch(QueueRates::nonZero)) {
        out.add(new Series(r.getKey(), minutes));
      }
    }
    out.sort(Comparator.comparing(Series::queue));
    return out;
  }

  private static boolean nonZero(Minute m) {
    return m.enqueued() + m.started() + m.succeeded() + m.failed() > 0;
  }

  /** The scheduling core's events counted at the clock's time. */
  public SchedulerEvents events(Clock clock) {
    return new SchedulerEvents() {
      @Override
      public void onEnqueued(Job job) {
        count(job.queue(), Kind.ENQUEUED, clock.instant());
      }

      @Override
      public void onLeased(Job job, Instant leasedAt) {
        count(job.queue(), Kind.STARTED, leasedAt);
      }

      @Override
      public void onCompleted(long jobId, String queue, @Nullable Duration runTime) {
        count(queue, Kind.SUCCEEDED, clock.instant());
      }

      @Override
      public void onFailed(Job job, ErrorKind kind, @Nullable Duration runTime) {
        count(job.queue(), Kind.FAILED, clock.instant());
      }

      @Override
      public void onLeaseExpired(Job job) {
        count(job.queue(), Kind.FAILED, clock.instant());
      }
    };
  }

  private static final class Ring {
    @GuardedBy("this")
    private final long[] minuteOfSlot = new long[MINUTES];

    @GuardedBy("this")
    private final long[][] counts = new long[MINUTES][Kind.values().length];

    Ring() {
      Arrays.fill(minuteOfSlot, Long.MIN_VALUE);
    }

    synchronized void add(Kind kind, long minute) {
      int slot = (int) Math.floorMod(minute, (long) MINUTES);
      if (minuteOfSlot[slot] != minute) {
        if (minuteOfSlot[slot] > minute) {
          return; // older than the hour the ring holds
        }
        minuteOfSlot[slot] = minute;
        Arrays.fill(counts[slot], 0);
      }
      counts[slot][kind.ordinal()]++;
    }

    synchronized List<Minute> minutes(long current) {
      List<Minute> out = new ArrayList<>(MINUTES);
      for (long m = current - MINUTES + 1; m <= current; m++) {
        int slot = (int) Math.floorMod(m, (long) MINUTES);
        long[] c = minuteOfSlot[slot] == m ? counts[slot] : new long[Kind.values().length];
        out.add(new Minute(Instant.ofEpochSecond(m * 60), c[0], c[1], c[2], c[3]));
      }
      return out;
    }
  }
}
