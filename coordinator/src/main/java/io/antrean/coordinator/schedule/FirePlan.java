package io.antrean.coordinator.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one fire of a due schedule does, decided from its definition, its next fire time and now
 * alone (a pure function): which due times get a job, how many are dropped, and the next fire time
 * after them.
 *
 * @param dueTimes the due times to enqueue a job for, oldest first; may be empty
 * @param misses due times dropped (misfire policy, or the overlap policy's one-at-a-time)
 * @param nextFireAt the first due time after now
 */
public record FirePlan(List<Instant> dueTimes, long misses, Instant nextFireAt) {
  /** The most a due time may be late and still fire under {@link MisfirePolicy#SKIP}. */
  public static final Duration MAX_GRACE = Duration.ofMinutes(1);

  /** Due times counted one by one at most; a longer gap counts this many misses. */
  static final int MAX_COUNTED = 10_000;

  public FirePlan {
    dueTimes = List.copyOf(dueTimes);
  }

  /**
   * The plan for a schedule whose next fire time {@code due} is at or before {@code now}.
   *
   * @throws IllegalArgumentException if {@code due} is after {@code now}
   */
  public static FirePlan of(ScheduleDefinition schedule, Instant due, Instant now) {
    if (due.isAfter(now)) {
      throw new IllegalArgumentException("not due: " + due + " is after " + now);
    }
    Recurrence recurrence = schedule.recurrence();
    Instant latest = recurrence.latestAtOrBefore(due, now);
    Instant next = recurrence.nextAfter(latest);
    int wanted =
        switch (schedule.misfirePolicy()) {
          case SKIP -> late(latest, next, now) ? 0 : 1;
          case RUN_ONCE -> 1;
          case RUN_ALL ->
              schedule.overlapPolicy() == OverlapPolicy.SKIP ? 1 : schedule.misfireLimit();
        };
    List<Instant> fired = new ArrayList<>(Math.min(wanted, 1024));
    Instant t = latest;
    while (fired.size() < wanted && !t.isBefore(due)) {
      fired.add(t);
      t = recurrence.previousBefore(t);
    }
    Collections.reverse(fired);
    long passed = count(recurrence, due, latest);
    return new FirePlan(fired, Math.max(0, passed - fired.size()), next);
  }

  /** Later than the grace: min({@link #MAX_GRACE}, the period that starts at {@code latest}). */
  private static boolean late(Instant latest, Instant next, Instant now) {
    Duration period = Duration.between(latest, next);
    Duration grace = period.compareTo(MAX_GRACE) < 0 ? period : MAX_GRACE;
    return Duration.between(latest, now).compareTo(grace) > 0;
  }

  /** Due times from {@code due} to {@code latest}, both included; at most {@link #MAX_COUNTED}. */
  private static long count(Recurrence recurrence, Instant due, Instant latest) {
    if (recurrence instanceof IntervalRecurrence interval) {
      return Duration.between(due, latest).toNanos() / interval.interval().toNanos() + 1;
    }
    long n = 1;
    Instant t = due;
    while (t.isBefore(latest) && n < MAX_COUNTED) {
      t = recurrence.nextAfter(t);
      n++;
    }
    return n;
  }
}
