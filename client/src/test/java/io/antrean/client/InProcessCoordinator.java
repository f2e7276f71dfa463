package io.antrean.client;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * An in-process gRPC server holding fake services, and a channel to it. Close it at the end of each
 * test; closing shuts both down and waits for them.
 */
public final class InProcessCoordinator implements AutoCloseable {
  private final Server server;
  private final ManagedChannel channel;

  private InProcessCoordinator(Server server, ManagedChannel channel) {
    this.server = server;
    this.channel = channel;
  }

  /** Starts a server with {@code services} under a fresh name and opens a channel to it. */
  public static InProcessCoordinator start(BindableService... services) {
    String name = InProcessServerBuilder.generateName();
    try {
      InProcessServerBuilder builder = InProcessServerBuilder.forName(name);
      for (BindableService service : services) {
        builder.addService(service);
      }
      Server server = builder.build().start();
      return new InProcessCoordinator(server, InProcessChannelBuilder.forName(name).build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The channel to the server; owned by this object. */
  public ManagedChannel channel() {
    return channel;
  }

  /** A client that borrows {@link #channel()} and gives each call {@code timeout}. */
  public GrpcAntreanClient client(Duration timeout) {
    return GrpcAntreanClient.forChannel(channel).timeout(timeout).build();
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow();
    channel.awaitTermination(5, TimeUnit.SECONDS);
    server.awaitTermination(5, TimeUnit.SECONDS);
  }
}
