package io.antrean.coordinator.store.sqlite;

import java.time.Instant;
import javax.annotation.Nullable;

/**
 * Instants as the SQLite store keeps them: whole epoch microseconds in an INTEGER column.
 * Converting truncates towards the past (an instant's nanoseconds below a microsecond are dropped),
 * so every stored time reads back as the same microsecond it was written in.
 */
final class Micros {
  private static final long PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private Micros() {}

  /**
   * @throws IllegalArgumentException if the instant lies outside about ±292,000 years of 1970
   */
  static long of(Instant instant) {
    try {
      return Math.addExact(
          Math.multiplyExact(instant.getEpochSecond(), PER_SECOND),
          instant.getNano() / NANOS_PER_MICRO);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("instant out of the storable range: " + instant, e);
    }
  }

  static Instant toInstant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, PER_SECOND), Math.floorMod(micros, PER_SECOND) * NANOS_PER_MICRO);
  }

  /** The instant as it reads back after being stored. */
  static Instant truncate(Instant instant) {
    return toInstant(of(instant));
  }

  @Nullable
  static Long ofNullable(@Nullable Instant instant) {
    return instant == null ? null : of(instant);
  }

  /**
   * The first whole microsecond at or after the instant: the bound to compare a stored column with
   * when the caller's instant may carry finer digits. A stored time {@code t} satisfies {@code t >=
   * instant} exactly when {@code t >= ceil(instant)}, and {@code t < instant} when {@code t <
   * ceil(instant)}.
   */
  static long ceil(Instant instant) {
    return of(instant) + (instant.getNano() % NANOS_PER_MICRO == 0 ? 0 : 1);
  }
}
