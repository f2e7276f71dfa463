package io.antrean.worker.testing;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** A {@link FakeWorkerService} behind an in-process gRPC server, and a channel to it. */
public final class InProcessCoordinator implements AutoCloseable {
  public final FakeWorkerService service = new FakeWorkerService();
  public final ManagedChannel channel;
  private final Server server;

  public InProcessCoordinator() throws IOException {
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).addService(service).build().start();
    channel = InProcessChannelBuilder.forName(name).build();
  }

  @Override
  public void close() {
    channel.shutdownNow();
    server.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
