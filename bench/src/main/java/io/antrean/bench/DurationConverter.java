package io.antrean.bench;

import io.antrean.duration.DurationSyntax;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads the bench's duration options in the syntax of {@link DurationSyntax} ({@code 500ms}, {@code
 * 30s}, {@code 1m30s}, {@code PT30S}); a bad value fails with that class's message. Stateless and
 * thread-safe.
 */
final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return DurationSyntax.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
