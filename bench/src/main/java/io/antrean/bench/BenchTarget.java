package io.antrean.bench;

import io.antrean.client.AntreanClient;
import io.antrean.client.GrpcAntreanClient;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The connections to the coordinator under test: one for the producer's calls and one that all
 * in-process workers share, as separate processes would have separate connections. Owns both
 * channels and shuts them down on {@link #close}. Thread-safe.
 */
final class BenchTarget implements AutoCloseable {
  private final String coordinator;
  private final Duration callTimeout;
  private final ManagedChannel producerChannel;
  private final ManagedChannel workerChannel;
  private final AntreanClient client;

  /**
   * Opens (lazily connecting) both channels.
   *
   * @param coordinator the coordinator's address, as {@code --coordinator} gives it
   * @param callTimeout the deadline of each call
   */
  BenchTarget(ChannelOpener opener, String coordinator, Duration callTimeout) {
    this.coordinator = coordinator;
    this.callTimeout = callTimeout;
    this.producerChannel = opener.open(coordinator);
    this.workerChannel = opener.open(coordinator);
    this.client = GrpcAntreanClient.forChannel(producerChannel).timeout(callTimeout).build();
  }

  /** The coordinator's address. */
  String coordinator() {
    return coordinator;
  }

  /** The deadline of each call. */
  Duration callTimeout() {
    return callTimeout;
  }

  /** The producer's client; blocking calls, failures translated as the CLI reports them. */
  AntreanClient client() {
    return client;
  }

  /**
   * The channel the producer's client uses, for scenarios that call through asynchronous stubs;
   * owned by this target.
   */
  Channel producerChannel() {
    return producerChannel;
  }

  /**
   * The channel in-process workers and the lease scenario share; owned by this target (workers only
   * borrow it).
   */
  ManagedChannel workerChannel() {
    return workerChannel;
  }

  /** Shuts both channels down, cancelling calls still open, and waits briefly for them. */
  @Override
  public void close() {
    producerChannel.shutdownNow();
    workerChannel.shutdownNow();
    try {
      producerChannel.awaitTermination(5, TimeUnit.SECONDS);
      workerChannel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
