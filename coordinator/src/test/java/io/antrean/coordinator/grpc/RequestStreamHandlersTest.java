package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.api.CallerIdentity;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.security.Role;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.antrean.proto.v1.RequestError;
import io.grpc.Contexts;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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

  /** A stream whose requests are answered by the test's handler, admitted as {@code kind}. */
  private static final class TestStream extends RequestStream<ProduceRequest, ProduceResponse> {
    private final Admission.Kind kind;
    private final Function<EnqueueRequest, CompletableFuture<EnqueueResponse>> handler;

    TestStream(
        ServerCallStreamObserver<ProduceResponse> out,
        RequestStreams streams,
        Admission.Kind kind,
        Function<EnqueueRequest, CompletableFuture<EnqueueResponse>> handler) {
      super(out, streams);
      this.kind = kind;
      this.handler = handler;
    }

    @Override
    public void onNext(ProduceRequest request) {
      start(
          request.getRequestId(),
          "test/Request",
          request.getEnqueue(),
          kind,
          handler,
          (id, r) -> ProduceResponse.newBuilder().setRequestId(id).setEnqueue(r).build(),
          NOTHING_HELD);
    }

    @Override
    ProduceResponse errorResponse(long id, RequestError error) {
      return ProduceResponse.newBuilder().setRequestId(id).setError(error).build();
    }
  }

  /** Serves a Produce stream of {@link TestStream}s over the call threads; returns its client. */
  private TestProduceStream serve(
      Admission.Kind kind,
      Function<EnqueueRequest, CompletableFuture<EnqueueResponse>> handler,
      ServerInterceptor... interceptors)
      throws Exception {
    RequestStreams streams = new RequestStreams(null, null, callThreads);
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                ServerInterceptors.intercept(
                    new JobServiceGrpc.JobServiceImplBase() {
                      @Override
                      public StreamObserver<ProduceRequest> produce(
                          StreamObserver<ProduceResponse> observer) {
                        return streams.add(
                            new TestStream(
                                (ServerCallStreamObserver<ProduceResponse>) observer,
                                streams,
                                kind,
                                handler));
                      }
                    },
                    interceptors))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    return new TestProduceStream(channel);
  }

  @Test
  void requestsWhoseHandlersBlockRunSideBySideOnTheCallThreads() throws Exception {
    CountDownLatch both = new CountDownLatch(2);
    TestProduceStream stream =
        serve(
            Admission.Kind.UNARY,
            r -> {
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
            });

    stream.enqueue(1, EnqueueRequest.newBuilder().setType("t"));
    stream.enqueue(2, EnqueueRequest.newBuilder().setType("t"));

    assertThat(stream.next().hasEnqueue()).isTrue();
    assertThat(stream.next().hasEnqueue()).isTrue();
  }

  @Test
  void aWaitingRequestWithdrawnByTheHalfCloseIsCancelledWhereItRuns() throws Exception {
    CompletableFuture<EnqueueResponse> waiting = new CompletableFuture<>();
    CountDownLatch started = new CountDownLatch(1);
    TestProduceStream stream =
        serve(
            Admission.Kind.LONG_POLL,
            r -> {
              started.countDown();
              return waiting;
            });

    stream.enqueue(1, EnqueueRequest.newBuilder().setType("t"));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    stream.requests.onCompleted();

    assertThat(stream.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
    // The cancel reaches the handler's own future on the thread it runs on, maybe after the end.
    await().atMost(Duration.ofSeconds(10)).until(waiting::isCancelled);
    assertThat(stream.answers).isEmpty();
  }

  @Test
  void handlersOnTheCallThreadsSeeTheCallersIdentity() throws Exception {
    Identity alice = new Identity("alice", Set.of(Role.PRODUCER), Set.of());
    ServerInterceptor authenticated =
        new ServerInterceptor() {
          @Override
          public <Q, A> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
            return Contexts.interceptCall(CallerIdentity.contextOf(alice), call, headers, next);
          }
        };
    TestProduceStream stream =
        serve(
            Admission.Kind.UNARY,
            r ->
                CompletableFuture.completedFuture(
                    EnqueueResponse.newBuilder()
                        .setJob(Job.newBuilder().setType(CallerIdentity.workerId("w1")))
                        .build()),
            authenticated);

    stream.enqueue(1, EnqueueRequest.newBuilder().setType("t"));

    assertThat(stream.next().getEnqueue().getJob().getType()).isEqualTo("alice/w1");
  }
}
