package io.antrean.coordinator.grpc;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC server's network threads ({@code antrean-network-N}): the event loops that accept
 * connections, read and write them, and run the hot calls ({@link HotCallExecutors}). grpc-java's
 * default is Netty's, two per core, made for loops that only move bytes; here the hot calls do
 * their work on these threads too, beside the store's writer thread, and a ready job handed from an
 * Enqueue on one connection to a Lease waiting on another crosses threads (a wake-up) unless both
 * connections share a loop. One per two cores by default, at least one: on two cores, one loop took
 * 5 to 19 % off the coordinator's CPU per job end to end against one per core, in three alternating
 * pairs, and one per core was within the noise of grpc-java's four (docs/benchmarks.md, "Fewer
 * network threads"). Epoll where the platform has it, else NIO, as grpc-java chooses. Closed by the
 * owner after the server has stopped.
 */
public final class NetworkThreads implements AutoCloseable {
  private final EventLoopGroup loops;
  private final Class<? extends ServerChannel> channelType;
  private final int threads;

  private NetworkThreads(int threads) {
    DefaultThreadFactory names = new DefaultThreadFactory("antrean-network", true);
    this.threads = threads;
    if (Epoll.isAvailable()) {
      this.loops = new MultiThreadIoEventLoopGroup(threads, names, EpollIoHandler.newFactory());
      this.channelType = EpollServerSocketChannel.class;
    } else {
      this.loops = new MultiThreadIoEventLoopGroup(threads, names, NioIoHandler.newFactory());
      this.channelType = NioServerSocketChannel.class;
    }
  }

  /**
   * @param threads how many event loops; at least 1
   * @throws IllegalArgumentException for fewer than 1
   */
  public static NetworkThreads of(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("network threads must be at least 1, got " + threads);
    }
    return new NetworkThreads(threads);
  }

  /** One per two cores the JVM sees, at least one. */
  public static int defaultCount() {
    return defaultCount(Runtime.getRuntime().availableProcessors());
  }

  static int defaultCount(int cores) {
    return Math.max(1, cores / 2);
  }

  /** How many event loops these are. */
  public int threads() {
    return threads;
  }

  /** Makes {@code builder}'s server accept and serve its connections on these threads. */
  public NettyServerBuilder serve(NettyServerBuilder builder) {
    return builder.bossEventLoopGroup(loops).workerEventLoopGroup(loops).channelType(channelType);
  }

  /** Stops the loops; call after the server they serve has shut down. */
  @Override
  public void close() {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
