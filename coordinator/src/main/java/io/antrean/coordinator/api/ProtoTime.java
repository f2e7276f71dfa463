package io.antrean.coordinator.api;

import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.Timestamps;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import java.time.Instant;
import java.util.List;

/**
 * Conversions between protobuf's well-known time types and java.time. A request's times go through
 * {@link #requestInstant} and {@link #requestDuration}, which accept only what protobuf itself
 * calls valid (years 1 to 9999; durations up to about 10,000 years with nanos of the seconds'
 * sign), so no input reaches java.time arithmetic that could overflow.
 */
public final class ProtoTime {
  private ProtoTime() {}

  public static Timestamp timestamp(Instant i) {
    return Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()).build();
  }

  /**
   * A request's time.
   *
   * @throws ValidationException naming {@code field} when the Timestamp is not a valid one
   */
  public static Instant requestInstant(Timestamp t, String field) {
    if (!Timestamps.isValid(t)) {
      throw new ValidationException(
          List.of(
              new FieldViolation(
                  field,
                  "must be a valid time from 0001-01-01T00:00:00Z to"
                      + " 9999-12-31T23:59:59.999999999Z, with nanos from 0 to 999999999")));
    }
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }

  /**
   * A duration as protobuf's: a negative one with a fraction carries negative nanos (java.time
   * counts -1 ns as -1 s plus 999,999,999 ns, which protobuf calls invalid and cannot print).
   */
  public static Duration duration(java.time.Duration d) {
    long seconds = d.getSeconds();
    int nanos = d.getNano();
    if (seconds < 0 && nanos > 0) {
      seconds += 1;
      nanos -= 1_000_000_000;
    }
    return Duration.newBuilder().setSeconds(seconds).setNanos(nanos).build();
  }

  /**
   * A request's duration.
   *
   * @throws ValidationException naming {@code field} when the Duration is not a valid one
   */
  public static java.time.Duration requestDuration(Duration d, String field) {
    if (!Durations.isValid(d)) {
      throw new ValidationException(
          List.of(
              new FieldViolation(
                  field,
                  "must be a valid duration of at most 315576000000 seconds, with nanos of the"
                      + " seconds' sign below one second")));
    }
    return java.time.Duration.ofSeconds(d.getSeconds(), d.getNanos());
  }
}
