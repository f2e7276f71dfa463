package io.antrean.worker.testing;

import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A {@link FakeWorkerService} behind an in-process gRPC server, and a channel to it. */
public final class InProcessCoordinator implements AutoCloseable {
  public final FakeWorkerService service = new FakeWorkerService();
  public final ManagedChannel channel;
  private final String name = InProcessServerBuilder.generateName();
  private final Server server;
  private final List<ManagedChannel> moreChannels = new CopyOnWriteArrayList<>();

  public InProcessCoordinator() throws IOException {
    server = InProcessServerBuilder.forName(name).addService(service).build().start();
    channel = InProcessChannelBuilder.forName(name).build();
  }

  /** Another channel to the same server, its calls going through {@code interceptors}. */
  public ManagedChannel channelThrough(ClientInterceptor... interceptors) {
    ManagedChannel more = InProcessChannelBuilder.forName(name).intercept(interceptors).build();
    moreChannels.add(more);
    return more;
  }

  @Override
  public void close() {
    channel.shutdownNow();
    moreChannels.forEach(ManagedChannel::shutdownNow);
    server.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
      for (ManagedChannel more : moreChannels) {
        more.awaitTermination(5, TimeUnit.SECONDS);
      }
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
