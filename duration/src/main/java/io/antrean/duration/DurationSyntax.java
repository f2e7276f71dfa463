package io.antrean.duration;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of Antrean's command lines: the coordinator's, the runnable worker's and
 * the CLI's options all read durations through {@link #parse}, so a value that one accepts every
 * other accepts too, and a bad value gets the same message everywhere.
 *
 * <p>Accepted, with any surrounding whitespace and in any letter case:
 *
 * <ul>
 *   <li>whole numbers with a unit, {@code ms}, {@code s}, {@code m}, {@code h} or {@code d} (a day
 *       is 24 hours): {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 7d};
 *   <li>such parts combined, largest unit first and each unit at most once: {@code 1m30s}, {@code
 *       1h30m}, {@code 2d12h}, {@code 1s500ms};
 *   <li>ISO-8601 as {@link Duration#parse} reads it: {@code PT30S}, {@code PT0.5S}, {@code P7D},
 *       {@code P1DT2H}.
 * </ul>
 *
 * <p>Negative durations, fractions outside ISO-8601, spaces inside the value, a number without a
 * unit and values that overflow {@link Duration} are refused. Stateless and thread-safe.
 */
public final class DurationSyntax {
  /** Largest unit first, each at most once; {@code m} is minutes unless {@code s} follows it. */
  private static final Pattern UNITS =
      Pattern.compile("(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m(?!s))?(?:(\\d+)s)?(?:(\\d+)ms)?");

  private DurationSyntax() {}

  /**
   * Reads {@code text} as a duration in the syntax described in the class comment.
   *
   * @return the duration, never negative
   * @throws IllegalArgumentException if {@code text} is not such a duration; its message is {@link
   *     #problem(String)} of {@code text}
   */
  public static Duration parse(String text) {
    String value = text.strip();
    Duration parsed = value.regionMatches(true, 0, "P", 0, 1) ? parseIso(value) : parseUnits(value);
    if (parsed == null || parsed.isNegative()) {
      throw new IllegalArgumentException(problem(text));
    }
    return parsed;
  }

  /**
   * The message for a value that is not a duration, the same for every kind of mistake: it quotes
   * the value and shows the accepted forms by example.
   */
  public static String problem(String text) {
    return "'" + text + "' is not a duration; write for example 500ms, 30s, 1m30s, 7d or PT30S";
  }

  private static Duration parseIso(String value) {
    try {
      return Duration.parse(value);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Duration parseUnits(String value) {
    Matcher parts = UNITS.matcher(value.toLowerCase(Locale.ROOT));
    if (value.isEmpty() || !parts.matches()) {
      return null;
    }
    try {
      return Duration.ofDays(amount(parts, 1))
          .plusHours(amount(parts, 2))
          .plusMinutes(amount(parts, 3))
          .plusSeconds(amount(parts, 4))
          .plusMillis(amount(parts, 5));
    } catch (ArithmeticException | NumberFormatException tooLarge) {
      return null;
    }
  }

  private static long amount(Matcher parts, int group) {
    String digits = parts.group(group);
    return digits == null ? 0 : Long.parseLong(digits);
  }
}
