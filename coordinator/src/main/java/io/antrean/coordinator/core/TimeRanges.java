package io.antrean.coordinator.core;

import java.time.Duration;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * The one place that says which times and durations a request may carry (docs/limits.md, "Times and
 * durations"), and the saturating arithmetic on them. Every bound keeps what is stored printable by
 * every API (RFC 3339 stops at year 9999) and keeps later arithmetic (a retry's delay, microseconds
 * in a 64-bit column) far from overflow. Stateless.
 */
public final class TimeRanges {
  /** The latest instant any API can print: the end of year 9999. */
  public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

  /** The earliest instant any API can print: the start of year 1. */
  public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

  /** How far ahead a job may be scheduled, by run_at or delay. */
  public static final Duration MAX_SCHEDULE_AHEAD = Duration.ofDays(3650);

  /** How far in the past a run_at may lie (it then means "due now"). */
  public static final Duration MAX_RUN_AT_PAST = Duration.ofDays(7);

  /** The longest backoff, retry_after, and so the longest delay of any retry. */
  public static final Duration MAX_BACKOFF = Duration.ofDays(365);

  /** The largest backoff multiplier. */
  public static final double MAX_MULTIPLIER = 100.0;

  private TimeRanges() {}

  /** The run_at's problem, or null when it lies in [now - 7 days, now + 3650 days]. */
  @Nullable
  static String runAtProblem(Instant runAt, Instant now) {
    if (runAt.isBefore(now.minus(MAX_RUN_AT_PAST)) || runAt.isAfter(now.plus(MAX_SCHEDULE_AHEAD))) {
      return "must lie between "
          + MAX_RUN_AT_PAST.toDays()
          + " days before and "
          + MAX_SCHEDULE_AHEAD.toDays()
          + " days after now";
    }
    return null;
  }

  /** The delay's problem, or null when it lies in [0, 3650 days]. */
  @Nullable
  static String delayProblem(Duration delay) {
    return within(delay, MAX_SCHEDULE_AHEAD);
  }

  /** A backoff's or retry_after's problem, or null when it lies in [0, 365 days]. */
  @Nullable
  static String backoffProblem(Duration backoff) {
    return within(backoff, MAX_BACKOFF);
  }

  /** The multiplier's problem, or null when it is a number in [1, 100]. */
  @Nullable
  static String multiplierProblem(double multiplier) {
    return multiplier >= 1.0 && multiplier <= MAX_MULTIPLIER
        ? null
        : "must be a number from 1 to " + (int) MAX_MULTIPLIER;
  }

  @Nullable
  private static String within(Duration d, Duration max) {
    if (d.isNegative()) {
      return "must not be negative";
    }
    return d.compareTo(max) > 0 ? "must be at most " + max.toDays() + " days" : null;
  }

  /** {@code at + d}, saturated to [{@link #EARLIEST}, {@link #LATEST}]. */
  public static Instant plus(Instant at, Duration d) {
    if (!d.isNegative()) {
      return d.compareTo(Duration.between(at, LATEST)) >= 0 ? LATEST : at.plus(d);
    }
    return d.compareTo(Duration.between(at, EARLIEST)) <= 0 ? EARLIEST : at.plus(d);
  }

  /** The duration in nanoseconds, saturated to the range of a long. */
  public static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
