package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Retention;
import io.antrean.coordinator.core.Settings;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;

/** For tests of the SQLite writer's quiet moment: no background write, and a moment of nothing. */
final class QuietMoments {
  /** Longer than the writer waits, with nothing written, before a caller may write in its stead. */
  private static final Duration QUIET = Duration.ofMillis(20);

  private QuietMoments() {}

  /** Waits out {@link #QUIET} without writing, so the next write comes in a quiet moment. */
  static void quietMoment() {
    long until = System.nanoTime() + QUIET.toNanos();
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }

  /** The default settings with no background write (lease sweep, retention) for an hour. */
  static Settings quietSettings() {
    Settings defaults = Settings.defaults();
    Duration hour = Duration.ofHours(1);
    Retention retention = defaults.retention();
    return defaults
        .withIntervals(hour, defaults.idempotencyWindow())
        .withHousekeeping(
            new Retention(retention.succeeded(), retention.cancelled(), retention.failed(), hour),
            defaults.deadLetterAlert());
  }

  /** A coordinator on {@code store} with {@link #quietSettings}, over Netty on a loopback port. */
  static Coordinator coordinator(SqliteJobStore store) throws IOException {
    return Coordinator.start(
        store,
        quietSettings(),
        Clock.systemUTC(),
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)));
  }

  /** A plaintext Netty channel to {@code coordinator}. */
  static ManagedChannel channelTo(Coordinator coordinator) {
    return NettyChannelBuilder.forAddress("127.0.0.1", coordinator.port()).usePlaintext().build();
  }
}
