package io.antrean.client.cli;

import com.google.protobuf.util.Durations;
import io.antrean.proto.v1.RateLimit;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a rate limit as {@code STARTS/DURATION}: {@code 10/1s} is at most 10 starts per second,
 * {@code 1/5m} one per five minutes (the duration as {@link DurationConverter} reads it).
 * Stateless.
 */
public final class RateConverter implements ITypeConverter<RateLimit> {
  private final DurationConverter durations = new DurationConverter();

  @Override
  public RateLimit convert(String value) {
    int slash = value.indexOf('/');
    if (slash <= 0 || slash == value.length() - 1) {
      throw new TypeConversionException(
          "'" + value + "' is not a rate: give STARTS/DURATION, e.g. 10/1s");
    }
    int starts;
    try {
      starts = Integer.parseInt(value.substring(0, slash).trim());
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "': the starts are not a whole number");
    }
    Duration interval = durations.convert(value.substring(slash + 1).trim());
    return RateLimit.newBuilder()
        .setStarts(starts)
        .setInterval(Durations.fromNanos(interval.toNanos()))
        .build();
  }
}
