package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client's Enqueues over the Produce stream: one stream carries every thread's requests, each
 * answered under its own id; errors, deadlines and broken streams end as the calls would; a
 * coordinator without Produce gets calls.
 */
@Timeout(30)
class ProduceStreamClientTest {
  private final FakeJobService service = new FakeJobService();
  private InProcessCoordinator coordinator;

  @AfterEach
  void stop() throws InterruptedException {
    if (coordinator != null) {
      coordinator.close();
    }
  }

  private static EnqueueRequest job(String payload) {
    return EnqueueRequest.newBuilder()
        .setType("t")
        .setPayload(ByteString.copyFromUtf8(payload))
        .build();
  }

  @Test
  void enqueuesFromSeveralThreadsShareOneStreamEachAnsweredWithItsOwnJob() throws Exception {
    coordinator = InProcessCoordinator.start(service);
    GrpcAntreanClient client = coordinator.client(Duration.ofSeconds(10));
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        results.add(
            threads.submit(
                () -> {
                  for (int i = 0; i < 50; i++) {
                    String payload = "{\"t\":" + thread + ",\"i\":" + i + "}";
                    EnqueueResponse r = client.enqueue(job(payload));
                    if (!r.getJob().getPayload().toStringUtf8().equals(payload)) {
                      return false;
                    }
                  }
                  return true;
                }));
      }
      for (Future<Boolean> result : results) {
        assertThat(result.get(20, TimeUnit.SECONDS)).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(service.produceStreams.get()).isEqualTo(1);
    assertThat(service.requestsOf(EnqueueRequest.class)).hasSize(400);
    assertThat(service.deadlines).as("no unary call").isEmpty();
  }

  @Test
  void anAnswerInErrorThrowsAsTheCallWouldWithItsReason() {
    coordinator = InProcessCoordinator.start(service);
    service.enqueue =
        r -> {
          throw FakeJobService.failure(
              Status.Code.ALREADY_EXISTS, "key k holds another payload", "IDEMPOTENCY_CONFLICT");
        };
    GrpcAntreanClient client = coordinator.client(Duration.ofSeconds(10));

    AlreadyExistsException e =
        catchThrowableOfType(AlreadyExistsException.class, () -> client.enqueue(job("{}")));

    assertThat(e.reason()).contains("IDEMPOTENCY_CONFLICT");
    assertThat(e.getMessage()).contains("key k holds another payload");
  }

  @Test
  void aRequestUnansweredWithinTheTimeoutFailsAsARetryableDeadlineExceeded() throws Exception {
    coordinator = InProcessCoordinator.start(service);
    CountDownLatch release = new CountDownLatch(1);
    service.enqueue =
        r -> {
          release.await(5, TimeUnit.SECONDS);
          return EnqueueResponse.getDefaultInstance();
        };
    GrpcAntreanClient client = coordinator.client(Duration.ofMillis(200));
    try {
      UnavailableException e =
          catchThrowableOfType(UnavailableException.class, () -> client.enqueue(job("{}")));

      assertThat(e.isDeadlineExceeded()).isTrue();
      assertThat(e.isRetryable()).isTrue();
    } finally {
      release.countDown();
    }
  }

  @Test
  void aRequestLeftUnansweredByABrokenStreamIsSentAgainOnANewOne() {
    AtomicInteger streams = new AtomicInteger();
    List<ProduceRequest> received = new ArrayList<>();
    coordinator =
        InProcessCoordinator.start(
            new JobServiceGrpc.JobServiceImplBase() {
              @Override
              public StreamObserver<ProduceRequest> produce(
                  StreamObserver<ProduceResponse> observer) {
                boolean breaks = streams.incrementAndGet() == 1;
                return new StreamObserver<>() {
                  @Override
                  public void onNext(ProduceRequest request) {
                    synchronized (received) {
                      received.add(request);
                    }
                    if (breaks) {
                      // An answer first, so gRPC's own retry no longer covers the stream.
                      observer.onNext(ProduceResponse.getDefaultInstance());
                      observer.onError(Status.UNAVAILABLE.withDescription("gone").asException());
                      return;
                    }
                    observer.onNext(
                        ProduceResponse.newBuilder()
                            .setRequestId(request.getRequestId())
                            .setEnqueue(
                                EnqueueResponse.newBuilder()
                                    .setJob(FakeJobService.jobFor(7, request.getEnqueue())))
                            .build());
                  }

                  @Override
                  public void onError(Throwable t) {}

                  @Override
                  public void onCompleted() {
                    observer.onCompleted();
                  }
                };
              }
            });
    GrpcAntreanClient client = coordinator.client(Duration.ofSeconds(10));

    assertThat(client.enqueue(job("{}")).getJob().getId()).isEqualTo(7);
    assertThat(streams.get()).isEqualTo(2);
    assertThat(received).hasSize(2);
  }

  @Test
  void anUnavailableAnswerIsSentAgainAsACallEndingSoWouldBe() {
    coordinator = InProcessCoordinator.start(service);
    AtomicInteger attempts = new AtomicInteger();
    service.enqueue =
        r -> {
          if (attempts.incrementAndGet() == 1) {
            throw FakeJobService.failure(
                Status.Code.UNAVAILABLE, "coordinator stopping", "COORDINATOR_STOPPING");
          }
          return EnqueueResponse.newBuilder().setJob(FakeJobService.jobFor(9, r)).build();
        };
    GrpcAntreanClient client = coordinator.client(Duration.ofSeconds(10));

    assertThat(client.enqueue(job("{}")).getJob().getId()).isEqualTo(9);
    assertThat(attempts.get()).isEqualTo(2);
  }

  @Test
  void againstACoordinatorWithoutProduceEnqueuesGoAsCallsWithTheirDeadline() {
    service.produceImplemented = false;
    coordinator = InProcessCoordinator.start(service);
    GrpcAntreanClient client = coordinator.client(Duration.ofSeconds(3));

    assertThat(client.enqueue(job("{\"a\":1}")).getJob().getPayload().toStringUtf8())
        .isEqualTo("{\"a\":1}");
    client.enqueue(job("{}"));

    assertThat(service.requestsOf(EnqueueRequest.class)).hasSize(2);
    assertThat(service.deadlines).hasSize(2).doesNotContainNull();
  }

  @Test
  void aNewStreamOpensAfterItsShareOfRequestsSoSeveralCoordinatorsShareTheLoad() {
    coordinator = InProcessCoordinator.start(service);
    GrpcAntreanClient client = coordinator.client(Duration.ofSeconds(10));

    for (int i = 0; i <= ProduceStreamClient.REQUESTS_PER_STREAM; i++) {
      client.enqueue(job("{}"));
    }

    assertThat(service.produceStreams.get()).isEqualTo(2);
  }
}
