package io.antrean.coordinator.schedule;

import java.time.Instant;

/**
 * When a schedule is due: a cron expression in a time zone, or a fixed interval. Due times are
 * whole microseconds. Implementations are immutable and thread-safe.
 */
public sealed interface Recurrence permits CronRecurrence, IntervalRecurrence {

  /** The first due time strictly after {@code time}. */
  Instant nextAfter(Instant time);

  /**
   * The latest due time at or before {@code now}, on the grid that {@code due} (a due time at or
   * before {@code now}) lies on; {@code due} itself when no later one has passed.
   */
  Instant latestAtOrBefore(Instant due, Instant now);

  /** The due time right before {@code due} (a due time), on the same grid. */
  Instant previousBefore(Instant due);
}
