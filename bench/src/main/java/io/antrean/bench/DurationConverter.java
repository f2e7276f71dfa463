package io.antrean.bench;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads durations the way people write them: {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h},
 * {@code 1d}, combinations such as {@code 1m30s}, or ISO-8601 such as {@code PT5S}. Negative
 * durations are rejected. Stateless and thread-safe.
 */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");
  private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:ms|s|m|h|d))+");

  @Override
  public Duration convert(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    Duration duration = value.startsWith("p") ? parseIso(text.trim()) : parseUnits(value);
    if (duration.isNegative()) {
      throw new TypeConversionException("'" + text + "' is negative");
    }
    return duration;
  }

  private static Duration parseIso(String text) {
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw invalid(text);
    }
  }

  private static Duration parseUnits(String text) {
    if (!WHOLE.matcher(text).matches()) {
      throw invalid(text);
    }
    Duration total = Duration.ZERO;
    Matcher part = PART.matcher(text);
    try {
      while (part.find()) {
        total = total.plus(unitsOf(Long.parseLong(part.group(1)), part.group(2)));
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw invalid(text);
    }
    return total;
  }

  private static Duration unitsOf(long amount, String unit) {
    switch (unit) {
      case "ms":
        return Duration.ofMillis(amount);
      case "s":
        return Duration.ofSeconds(amount);
      case "m":
        return Duration.ofMinutes(amount);
      case "h":
        return Duration.ofHours(amount);
      default:
        return Duration.ofDays(amount);
    }
  }

  private static TypeConversionException invalid(String text) {
    return new TypeConversionException(
        "'" + text + "' is not a duration; use for example 250ms, 5s, 2m, 1h30m or PT5S");
  }
}
