package io.antrean.coordinator.grpc;

import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import java.time.Instant;

/** Conversions between protobuf's well-known time types and java.time. */
final class ProtoTime {
  private ProtoTime() {}

  static Timestamp timestamp(Instant i) {
    return Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()).build();
  }

  static Instant instant(Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }

  static Duration duration(java.time.Duration d) {
    return Duration.newBuilder().setSeconds(d.getSeconds()).setNanos(d.getNano()).build();
  }

  static java.time.Duration duration(Duration d) {
    return java.time.Duration.ofSeconds(d.getSeconds(), d.getNanos());
  }
}
