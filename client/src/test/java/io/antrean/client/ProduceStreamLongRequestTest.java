package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request longer than the coordinator takes, over a real loopback connection with gRPC's default
 * 4 MiB limit on a received message: it is refused alone, as its own call would be, and the other
 * requests of the client's Produce stream are answered. On the stream it would end the stream, and
 * every request waiting on it with the same error.
 */
@Timeout(30)
class ProduceStreamLongRequestTest {
  /** Answers nothing on its Produce streams until the test does; counts them. */
  private static final class HeldProduce extends JobServiceGrpc.JobServiceImplBase {
    final BlockingQueue<ProduceRequest> received = new LinkedBlockingQueue<>();
    final AtomicInteger streams = new AtomicInteger();
    volatile StreamObserver<ProduceResponse> lastStream;

    @Override
    public StreamObserver<ProduceRequest> produce(StreamObserver<ProduceResponse> observer) {
      streams.incrementAndGet();
      lastStream = observer;
      return new StreamObserver<>() {
        @Override
        public void onNext(ProduceRequest request) {
          received.add(request);
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          observer.onCompleted();
        }
      };
    }
  }

  private final HeldProduce service = new HeldProduce();
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(service)
            .build()
            .start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow();
    channel.awaitTermination(5, TimeUnit.SECONDS);
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void aBatchPastTheCoordinatorsRequestLimitFailsAloneAndTheStreamsOtherRequestsAreAnswered()
      throws Exception {
    GrpcAntreanClient client =
        GrpcAntreanClient.forChannel(channel).timeout(Duration.ofSeconds(20)).build();
    EnqueueRequest small =
        EnqueueRequest.newBuilder().setType("t").setPayload(ByteString.copyFromUtf8("{}")).build();
    CompletableFuture<EnqueueResponse> held =
        CompletableFuture.supplyAsync(() -> client.enqueue(small));
    ProduceRequest first = service.received.poll(10, TimeUnit.SECONDS);
    assertThat(first).isNotNull();

    EnqueueBatchRequest.Builder tooLong = EnqueueBatchRequest.newBuilder();
    for (int i = 0; i < 5; i++) {
      tooLong.addJobs(
          EnqueueRequest.newBuilder()
              .setType("t")
              .setPayload(ByteString.copyFrom(new byte[1 << 20])));
    }
    AntreanException refused =
        catchThrowableOfType(AntreanException.class, () -> client.enqueueBatch(tooLong.build()));
    service.lastStream.onNext(
        ProduceResponse.newBuilder()
            .setRequestId(first.getRequestId())
            .setEnqueue(EnqueueResponse.newBuilder().setJob(FakeJobService.jobFor(1, small)))
            .build());

    assertThat(refused.statusCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(held.get(10, TimeUnit.SECONDS).getJob().getId()).isEqualTo(1);
    assertThat(service.streams.get()).isEqualTo(1);
  }
}
