package io.antrean.worker;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads a duration from the command line: a whole number with a unit ({@code 500ms}, {@code 30s},
 * {@code 2m}, {@code 1h}) or an ISO-8601 duration ({@code PT30S}). Negative durations are rejected.
 * Stateless.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern WITH_UNIT = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /**
   * Parses {@code value} as described in the class comment.
   *
   * @throws CommandLine.TypeConversionException if it is not such a duration
   */
  static Duration parse(String value) {
    String text = value.strip().toLowerCase(Locale.ROOT);
    Matcher matcher = WITH_UNIT.matcher(text);
    if (matcher.matches()) {
      long amount = Long.parseLong(matcher.group(1));
      return switch (matcher.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofHours(amount);
      };
    }
    try {
      Duration parsed = Duration.parse(value.strip());
      if (!parsed.isNegative()) {
        return parsed;
      }
    } catch (DateTimeParseException e) {
      // Fall through to the message below, which says what is accepted.
    }
    throw new CommandLine.TypeConversionException(
        "'" + value + "' is not a duration; use for example 500ms, 30s, 2m, 1h or PT30S");
  }
}
