package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's gRPC connections are served by the event loops it was given, and only those.
 */
@Timeout(30)
class NetworkThreadsTest {
  @TempDir Path dir;

  @Test
  void everyConnectionIsServedByTheGivenLoops() throws Exception {
    List<String> threads = new CopyOnWriteArrayList<>();
    ServerInterceptor recorder =
        new ServerInterceptor() {
          @Override
          public <Q, A> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
            threads.add(Thread.currentThread().getName());
            return next.startCall(call, headers);
          }
        };
    List<ManagedChannel> channels = new ArrayList<>();
    try (NetworkThreads network = NetworkThreads.of(1)) {
      assertThat(network.threads()).isEqualTo(1);
      try (Coordinator coordinator =
          Coordinator.start(
              SqliteJobStore.open(dir, SqliteOptions.defaults()),
              Settings.defaults().withJobTypes(Set.of("t"), Map.of(), Map.of()),
              Clock.systemUTC(),
              network
                  .serve(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)))
                  .intercept(recorder))) {
        // Three connections, which grpc-java's default would spread over three event loops.
        for (int i = 0; i < 3; i++) {
          ManagedChannel channel =
              NettyChannelBuilder.forAddress("127.0.0.1", coordinator.port())
                  .usePlaintext()
                  .build();
          channels.add(channel);
          JobServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .enqueue(
                  EnqueueRequest.newBuilder()
                      .setType("t")
                      .setPayload(ByteString.copyFromUtf8("{}"))
                      .build());
        }
      } finally {
        channels.forEach(ManagedChannel::shutdownNow);
      }
    }

    assertThat(threads).hasSize(3);
    assertThat(Set.copyOf(threads)).hasSize(1);
    assertThat(threads.get(0)).matches("antrean-network-\\d+-\\d+");
  }

  @Test
  void theDefaultIsOnePerTwoCoresAndAtLeastOne() {
    assertThat(NetworkThreads.defaultCount(1)).isEqualTo(1);
    assertThat(NetworkThreads.defaultCount(2)).isEqualTo(1);
    assertThat(NetworkThreads.defaultCount(3)).isEqualTo(1);
    assertThat(NetworkThreads.defaultCount(8)).isEqualTo(4);
    assertThat(NetworkThreads.defaultCount())
        .isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
  }

  @Test
  void fewerThanOneThreadIsRefused() {
    assertThatThrownBy(() -> NetworkThreads.of(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("network threads must be at least 1, got 0");
  }
}
