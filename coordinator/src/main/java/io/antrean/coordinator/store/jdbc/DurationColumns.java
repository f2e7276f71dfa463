package io.antrean.coordinator.store.jdbc;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * Durations (the retry policy's backoffs) as both stores keep them: whole microseconds in a 64-bit
 * integer column. Finer digits are dropped towards the past, so a duration reads back as the
 * microsecond it fell in.
 */
public final class DurationColumns {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private DurationColumns() {}

  /**
   * @throws IllegalArgumentException if the duration is longer than about 292,000 years
   */
  public static long toMicros(Duration duration) {
    try {
      return Math.addExact(
          Math.multiplyExact(duration.getSeconds(), MICROS_PER_SECOND),
          duration.getNano() / NANOS_PER_MICRO);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("duration out of the storable range: " + duration, e);
    }
  }

  public static Duration fromMicros(long micros) {
    return Duration.of(micros, ChronoUnit.MICROS);
  }

  /** The duration as it reads back after being stored. */
  public static Duration asStored(Duration duration) {
    return fromMicros(toMicros(duration));
  }
}
