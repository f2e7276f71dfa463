package io.antrean.worker.internal;

import java.time.Duration;

/** Converts {@link Duration} to its protobuf twin. Stateless. */
final class ProtoDurations {
  private ProtoDurations() {}

  static com.google.protobuf.Duration of(Duration duration) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(duration.getSeconds())
        .setNanos(duration.getNano())
        .build();
  }
}
