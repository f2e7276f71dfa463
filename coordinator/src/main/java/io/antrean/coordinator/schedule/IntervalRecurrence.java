package io.antrean.coordinator.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A fixed interval: due times are an anchor (the schedule's first due time) plus whole intervals.
 *
 * @param interval at least one second
 */
public record IntervalRecurrence(Duration interval) implements Recurrence {
  /** The shortest interval accepted. */
  public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

  public IntervalRecurrence {
    Objects.requireNonNull(interval, "interval");
    if (interval.compareTo(MIN_INTERVAL) < 0) {
      throw new IllegalArgumentException("interval must be at least 1 s, got " + interval);
    }
  }

  @Override
  public Instant nextAfter(Instant time) {
    return time.plus(interval);
  }

  @Override
  public Instant latestAtOrBefore(Instant due, Instant now) {
    if (now.isBefore(due)) {
      throw new IllegalArgumentException("due time " + due + " is after now " + now);
    }
    long steps = Duration.between(due, now).toNanos() / interval.toNanos();
    return due.plus(interval.multipliedBy(steps));
  }

  @Override
  public Instant previousBefore(Instant due) {
    return due.minus(interval);
  }
}
