package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.core.InFlightLimits;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.http.FaultyStore;
import io.antrean.coordinator.http.HttpEndpoint;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.WorkResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Past an in-flight limit, gRPC calls get RESOURCE_EXHAUSTED (ErrorInfo OVERLOADED with the limit,
 * RetryInfo) and HTTP API calls 429 with Retry-After; refused calls store nothing, health is never
 * refused, and places come back when calls end (issue 11, defect 6).
 */
@Timeout(60)
class AdmissionInterceptorTest {
  @TempDir Path dir;
  private Coordinator coordinator;
  private FaultyStore faults;
  private ManagedChannel channel;
  private final CountDownLatch release = new CountDownLatch(1);
  private final ExecutorService callers = Executors.newCachedThreadPool();

  private void start(InFlightLimits limits) throws Exception {
    FaultyStore.Wrapped wrapped =
        FaultyStore.wrap(SqliteJobStore.open(dir, SqliteOptions.defaults()));
    faults = wrapped.control();
    String name = InProcessServerBuilder.generateName();
    coordinator =
        Coordinator.start(
            wrapped.store(),
            Settings.defaults().withJobTypes(Set.of("t"), Map.of(), Map.of()),
            Clock.systemUTC(),
            InProcessServerBuilder.forName(name),
            new HttpEndpoint("127.0.0.1", 0),
            limits);
    channel = InProcessChannelBuilder.forName(name).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    release.countDown();
    callers.shutdown();
    callers.awaitTermination(10, TimeUnit.SECONDS);
    if (channel != null) {
      channel.shutdownNow();
      coordinator.close();
    }
  }

  private JobServiceGrpc.JobServiceBlockingStub jobs() {
    return JobServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  private static EnqueueBatchRequest batch(int jobs, int payloadBytes) {
    EnqueueBatchRequest.Builder b = EnqueueBatchRequest.newBuilder();
    for (int i = 0; i < jobs; i++) {
      b.addJobs(
          EnqueueRequest.newBuilder()
              .setType("t")
              .setPayload(ByteString.copyFrom(new byte[payloadBytes])));
    }
    return b.build();
  }

  /** Starts an EnqueueBatch that hangs in the store until {@link #release} opens. */
  private CompletableFuture<Integer> hangingBatch(int jobs, int payloadBytes) {
    faults.hangOn("enqueue", release);
    return CompletableFuture.supplyAsync(
        () -> jobs().enqueueBatch(batch(jobs, payloadBytes)).getResultsCount(), callers);
  }

  private Admission admission() {
    return coordinator.admission();
  }

  private void awaitCallsInFlight(int n) {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> admission().inFlight(Admission.Kind.UNARY) >= n);
  }

  private static void assertOverloaded(StatusRuntimeException e, String limit) throws Exception {
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    com.google.rpc.Status status = StatusProto.fromThrowable(e);
    ErrorInfo info = null;
    RetryInfo retry = null;
    for (com.google.protobuf.Any any : status.getDetailsList()) {
      if (any.is(ErrorInfo.class)) {
        info = any.unpack(ErrorInfo.class);
      } else if (any.is(RetryInfo.class)) {
        retry = any.unpack(RetryInfo.class);
      }
    }
    assertThat(info).isNotNull();
    assertThat(info.getReason()).isEqualTo("OVERLOADED");
    assertThat(info.getMetadataMap()).containsEntry("limit", limit);
    assertThat(retry).isNotNull();
    assertThat(retry.getRetryDelay().getSeconds() * 1000 + retry.getRetryDelay().getNanos() / 1e6)
        .isEqualTo(250.0);
  }

  @Test
  void aCallPastTheCallLimitIsRefusedAndItsPlaceComesBackWhenACallEnds() throws Exception {
    start(new InFlightLimits(16L << 20, 1, 8, 8, Duration.ofMillis(250)));
    CompletableFuture<Integer> held = hangingBatch(1, 10);
    awaitCallsInFlight(1);

    assertThatThrownBy(() -> jobs().getStats(GetStatsRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class, e -> assertOverloadedUnchecked(e, "in_flight_calls"));
    // Health is never counted.
    assertThat(
            HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance())
                .getStatus())
        .hasToString("SERVING");
    // Nor are the probes; the HTTP API is counted with gRPC.
    HttpClient http = HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + coordinator.httpPort();
    HttpResponse<String> probe =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(probe.statusCode()).isEqualTo(200);
    HttpResponse<String> refused =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/v1/jobs"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"type\":\"t\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(refused.body()).contains("\"OVERLOADED\"");

    release.countDown();
    assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    faults.heal();
    assertThat(jobs().listJobs(ListJobsRequest.getDefaultInstance()).getJobsCount()).isEqualTo(1);
  }

  @Test
  void aRequestPastTheByteLimitIsRefusedAndNothingOfItIsStored() throws Exception {
    start(new InFlightLimits(40_000, 100, 8, 8, Duration.ofMillis(250)));
    CompletableFuture<Integer> held = hangingBatch(10, 3_000);
    await().atMost(Duration.ofSeconds(10)).until(() -> admission().bytesInFlight() >= 30_000);

    assertThatThrownBy(() -> jobs().enqueueBatch(batch(10, 1_000)))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class, e -> assertOverloadedUnchecked(e, "in_flight_bytes"));
    // A small call still fits.
    jobs().getStats(GetStatsRequest.getDefaultInstance());

    release.countDown();
    assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(10);
    faults.heal();
    assertThat(coordinator.admission().bytesInFlight()).isZero();
    assertThat(jobs().listJobs(ListJobsRequest.getDefaultInstance()).getJobsCount()).isEqualTo(10);
    assertThat(jobs().enqueueBatch(batch(10, 1_000)).getResultsCount()).isEqualTo(10);
  }

  @Test
  void aWorkStreamsRequestsAreAdmittedOneByOneAndTheStreamItselfHoldsNoPlace() throws Exception {
    start(new InFlightLimits(16L << 20, 1, 1, 8, Duration.ofMillis(250)));
    TestWorkStream stream = new TestWorkStream(channel);
    LeaseRequest.Builder waiting =
        LeaseRequest.newBuilder()
            .setWorkerId("w")
            .setWait(com.google.protobuf.Duration.newBuilder().setSeconds(20));

    stream.lease(1, waiting);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> admission().inFlight(Admission.Kind.LONG_POLL) == 1);
    stream.lease(2, waiting);

    WorkResponse refused = stream.next();
    assertThat(refused.getRequestId()).isEqualTo(2);
    assertOverloaded(TestWorkStream.error(refused), "long_polls");
    // The open stream takes no place of a call: one still fits under a limit of one.
    jobs().getStats(GetStatsRequest.getDefaultInstance());
    stream.cancel(1);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> admission().inFlight(Admission.Kind.LONG_POLL) == 0);
    stream.lease(3, waiting.clone().setWait(TestWorkStream.NO_WAIT));
    WorkResponse answered = stream.next();
    assertThat(answered.getRequestId()).isEqualTo(3);
    assertThat(answered.hasLease()).isTrue();
    stream.requests.onCompleted();
  }

  private static void assertOverloadedUnchecked(StatusRuntimeException e, String limit) {
    try {
      assertOverloaded(e, limit);
    } catch (Exception ex) {
      throw new AssertionError(ex);
    }
  }
}
