package io.antrean.client.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import javax.annotation.Nullable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A point in time as {@code --since} and {@code --until} take it: either a fixed instant or a
 * duration before now, which is only turned into an instant when the command runs ({@link
 * #resolve}), so tests can fix "now". Immutable.
 *
 * @param at the instant, or {@code null} for a relative bound
 * @param ago how long before now, or {@code null} for a fixed instant
 */
record TimeBound(@Nullable Instant at, @Nullable Duration ago) {

  /** Checks that exactly one of {@code at} and {@code ago} is set. */
  TimeBound {
    if ((at == null) == (ago == null)) {
      throw new IllegalArgumentException("a time bound is an instant or a duration ago, not both");
    }
  }

  /** The instant this bound stands for when the time is {@code now}. */
  Instant resolve(Instant now) {
    return at != null ? at : now.minus(ago);
  }

  /**
   * Reads {@code 30m}, {@code 1h}, {@code 2d}, {@code 1h30m} or {@code PT1H} as that long before
   * now; an RFC 3339 time such as {@code 2026-11-02T10:00:00Z} or {@code
   * 2026-11-02T12:00:00.5+02:00} (a space for the {@code T} and lower-case letters are accepted);
   * or a date such as {@code 2026-11-02} as its start in UTC. Stateless and thread-safe.
   */
  static final class Converter implements ITypeConverter<TimeBound> {
    private final DurationConverter durations = new DurationConverter();

    @Override
    public TimeBound convert(String text) {
      String value = text.trim();
      if (value.isEmpty()) {
        throw invalid(text);
      }
      if (!value.contains("-")) {
        try {
          return new TimeBound(null, durations.convert(value));
        } catch (TypeConversionException notADuration) {
          throw invalid(text);
        }
      }
      String upper = value.toUpperCase(Locale.ROOT).replace(' ', 'T');
      try {
        return new TimeBound(OffsetDateTime.parse(upper).toInstant(), null);
      } catch (DateTimeParseException notATime) {
        // A date alone is a convenience beyond RFC 3339; try it before giving up.
      }
      try {
        return new TimeBound(LocalDate.parse(upper).atStartOfDay(ZoneOffset.UTC).toInstant(), null);
      } catch (DateTimeParseException notADate) {
        throw invalid(text);
      }
    }

    private static TypeConversionException invalid(String text) {
      return new TypeConversionException(
          "'"
              + text
              + "' is neither a duration before now (30m, 1h, 2d) nor an RFC 3339 time"
              + " (2026-11-02T10:00:00Z, 2026-11-02T12:00:00+02:00) or a date (2026-11-02, UTC)");
    }
  }
}
