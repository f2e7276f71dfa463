package io.antrean.coordinator.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import javax.annotation.Nullable;

/**
 * Instants as {@code timestamptz}, which keeps microseconds: finer digits are dropped here, towards
 * the past, before a value reaches the server (which would round them instead), so every stored
 * time reads back as the microsecond it fell in. Durations are {@link
 * io.antrean.coordinator.store.jdbc.DurationColumns}.
 */
final class Timestamps {
  /** The earliest instant a {@code timestamptz} holds (4713 BC). */
  static final Instant MIN = Instant.parse("-4712-11-24T00:00:00Z");

  /** The latest instant a {@code timestamptz} holds (294276 AD). */
  static final Instant MAX = Instant.parse("+294276-12-31T23:59:59.999999Z");

  private static final long NANOS_PER_MICRO = 1_000L;

  private Timestamps() {}

  /** The instant as it reads back after being stored. */
  static Instant truncate(Instant instant) {
    // truncatedTo works on the (always positive) nano-of-second: towards the past, also pre-1970.
    Instant truncated = instant.truncatedTo(ChronoUnit.MICROS);
    if (truncated.isBefore(MIN) || truncated.isAfter(MAX)) {
      throw new IllegalArgumentException("instant out of the storable range: " + instant);
    }
    return truncated;
  }

  /**
   * The first whole microsecond at or after the instant: the bound to compare a stored column with
   * when the caller's instant may carry finer digits ({@code t >= x} exactly when {@code t >=
   * ceil(x)}, and {@code t < x} when {@code t < ceil(x)}).
   */
  static Instant ceil(Instant instant) {
    Instant truncated = truncate(instant);
    return instant.getNano() % NANOS_PER_MICRO == 0
        ? truncated
        : truncated.plus(1, ChronoUnit.MICROS);
  }

  /**
   * The instant ({@link #truncate}d) as {@code timestamptz} input reads it whatever the session's
   * date style, for arrays of times bound as {@code text[]} and cast on the server: {@code
   * 2026-12-03 14:05:09.000123+00}, years past 9999 in more digits, and years before 1 AD as {@code
   * BC} (ISO year 0 is 1 BC).
   */
  static String literal(Instant instant) {
    OffsetDateTime t = OffsetDateTime.ofInstant(truncate(instant), ZoneOffset.UTC);
    int year = t.getYear();
    StringBuilder out = new StringBuilder(36);
    pad(out, year > 0 ? year : 1 - year, 4).append('-');
    pad(out, t.getMonthValue(), 2).append('-');
    pad(out, t.getDayOfMonth(), 2).append(' ');
    pad(out, t.getHour(), 2).append(':');
    pad(out, t.getMinute(), 2).append(':');
    pad(out, t.getSecond(), 2).append('.');
    pad(out, t.getNano() / (int) NANOS_PER_MICRO, 6).append("+00");
    return year > 0 ? out.toString() : out.append(" BC").toString();
  }

  private static StringBuilder pad(StringBuilder out, int value, int digits) {
    String text = Integer.toString(value);
    for (int i = text.length(); i < digits; i++) {
      out.append('0');
    }
    return out.append(text);
  }

  static void set(PreparedStatement statement, int index, Instant instant) throws SQLException {
    statement.setObject(index, OffsetDateTime.ofInstant(truncate(instant), ZoneOffset.UTC));
  }

  static void setNullable(PreparedStatement statement, int index, @Nullable Instant instant)
      throws SQLException {
    if (instant == null) {
      statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      set(statement, index, instant);
    }
  }

  /** Binds the {@link #ceil} of the instant. */
  static void setCeil(PreparedStatement statement, int index, Instant instant) throws SQLException {
    set(statement, index, ceil(instant));
  }

  @Nullable
  static Instant get(ResultSet row, int column) throws SQLException {
    OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
