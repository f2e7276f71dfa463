package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.core.Admission;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.antrean.proto.v1.RequestError;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * On a store whose writes block, a stream's requests run on the call threads, side by side as their
 * calls would: two requests whose handlers each wait for the other are both answered.
 */
@Timeout(30)
class RequestStreamHandlersTest {
  private final ExecutorService callThreads = Executors.newFixedThreadPool(4);
  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    callThreads.shutdownNow();
  }

  /** A stream whose every handler blocks until {@code both} requests have reached a handler. */
  private static final class Rendezvous extends RequestStream<ProduceRequest, ProduceResponse> {
    private final CountDownLatch both;

    Rendezvous(ServerCallStreamObserver<ProduceResponse> out, RequestStreams s, CountDownLatch b) {
      super(out, s);
      this.both = b;
    }

    @Override
    public void onNext(ProduceRequest request) {
      start(
          request.getRequestId(),
          "test/Rendezvous",
          request.getEnqueue(),
          Admission.Kind.UNARY,
          (EnqueueRequest r) -> {
            both.countDown();
            try {
              if (!both.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other request never reached its handler");
              }
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IllegalStateException(e);
            }
            return CompletableFuture.completedFuture(EnqueueResponse.getDefaultInstance());
          },
          (id, r) -> ProduceResponse.newBuilder().setRequestId(id).setEnqueue(r).build());
    }

    @Override
    ProduceResponse errorResponse(long id, RequestError error) {
      return ProduceResponse.newBuilder().setRequestId(id).setError(error).build();
    }
  }

  @Test
  void requestsWhoseHandlersBlockRunSideBySideOnTheCallThreads() throws Exception {
    RequestStreams streams = new RequestStreams(null, null, callThreads);
    CountDownLatch both = new CountDownLatch(2);
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new JobServiceGrpc.JobServiceImplBase() {
                  @Override
                  public StreamObserver<ProduceRequest> produce(
                      StreamObserver<ProduceResponse> observer) {
                    return streams.add(
                        new Rendezvous(
                            (ServerCallStreamObserver<ProduceResponse>) observer, streams, both));
                  }
                })
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    TestProduceStream stream = new TestProduceStream(channel);

    stream.enqueue(1, EnqueueRequest.newBuilder().setType("t"));
    stream.enqueue(2, EnqueueRequest.newBuilder().setType("t"));

    assertThat(stream.next().hasEnqueue()).isTrue();
    assertThat(stream.next().hasEnqueue()).isTrue();
  }
}
