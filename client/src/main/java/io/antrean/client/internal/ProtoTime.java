package io.antrean.client.internal;

import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import java.time.Instant;

/**
 * Converts between {@code java.time} values and their protobuf well-known types. Not part of the
 * supported API: the {@code internal} package may change without notice. Stateless, thread-safe.
 */
public final class ProtoTime {
  private ProtoTime() {}

  /** The protobuf form of a duration, to the nanosecond. */
  public static Duration toProto(java.time.Duration duration) {
    return Duration.newBuilder()
        .setSeconds(duration.getSeconds())
        .setNanos(duration.getNano())
        .build();
  }

  /** The protobuf form of an instant, to the nanosecond. */
  public static Timestamp toProto(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }

  /**
   * The {@code java.time} form of a protobuf duration. Protobuf keeps seconds and nanos with the
   * same sign, so adding them is exact.
   */
  public static java.time.Duration fromProto(Duration duration) {
    return java.time.Duration.ofSeconds(duration.getSeconds(), duration.getNanos());
  }

  /** The {@code java.time} form of a protobuf timestamp. */
  public static Instant fromProto(Timestamp timestamp) {
    return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
  }
}
