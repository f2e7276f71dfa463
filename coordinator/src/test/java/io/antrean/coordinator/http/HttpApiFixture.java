package io.antrean.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A coordinator on a temporary SQLite store (behind a {@link FaultyStore}) with gRPC in-process and
 * the real HTTP server on 127.0.0.1 at a free port, plus a {@link HttpClient} to call it. Declares
 * the job types {@code email.send} and {@code report.build}.
 */
public final class HttpApiFixture implements AutoCloseable {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  public final JobStore realStore;
  public final FaultyStore faults;
  public final Coordinator coordinator;
  public final JobServiceGrpc.JobServiceBlockingStub jobs;
  public final WorkerServiceGrpc.WorkerServiceBlockingStub workers;
  private final ManagedChannel channel;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final String base;

  public HttpApiFixture(Path dir) throws Exception {
    this(dir, HttpServerLimits.DEFAULTS);
  }

  /** A fixture whose HTTP server has {@code limits}. */
  public HttpApiFixture(Path dir, HttpServerLimits limits) throws Exception {
    realStore = SqliteJobStore.open(dir, SqliteOptions.defaults());
    FaultyStore.Wrapped wrapped = FaultyStore.wrap(realStore);
    faults = wrapped.control();
    String name = InProcessServerBuilder.generateName();
    Settings settings =
        Settings.defaults().withJobTypes(Set.of("email.send", "report.build"), Map.of(), Map.of());
    coordinator =
        Coordinator.start(
            wrapped.store(),
            settings,
            Clock.systemUTC(),
            InProcessServerBuilder.forName(name).directExecutor(),
            new HttpEndpoint("127.0.0.1", 0, limits));
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    jobs = JobServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    workers = WorkerServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    base = "http://127.0.0.1:" + coordinator.httpPort();
  }

  public HttpResponse<String> get(String path) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  public HttpResponse<String> post(String path, String body) throws Exception {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  public HttpResponse<String> send(String method, String path, String body) throws Exception {
    return send(
        HttpRequest.newBuilder(uri(path))
            .method(method, HttpRequest.BodyPublishers.ofString(body)));
  }

  public HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
  }

  public URI uri(String path) {
    return URI.create(base + path);
  }

  /** Parses a JSON answer into a message, failing on any field the message does not have. */
  public static <B extends Message.Builder> B parse(String json, B builder) throws Exception {
    JsonFormat.parser().merge(json, builder);
    return builder;
  }

  /** Parses an answer as a JSON object. */
  public static Struct struct(HttpResponse<String> response) throws Exception {
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    return parse(response.body(), Struct.newBuilder()).build();
  }

  /** Base64 of a JSON payload, as the API's bytes fields want it. */
  public static String base64(String payload) {
    return Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
  }

  /** An EnqueueRequest body for an e-mail job, with extra JSON members appended. */
  public static String emailBody(String extraMembers) {
    return "{\"type\":\"email.send\",\"payload\":\""
        + base64("{\"to\":\"a@example.com\"}")
        + "\""
        + (extraMembers.isEmpty() ? "" : "," + extraMembers)
        + "}";
  }

  /** Leases up to {@code max} ready jobs of the default queue without waiting. */
  public List<Job> lease(int max) {
    return workers
        .lease(
            LeaseRequest.newBuilder()
                .setWorkerId("w1")
                .setMaxJobs(max)
                .setWait(com.google.protobuf.Duration.getDefaultInstance())
                .build())
        .getJobsList();
  }

  public void complete(Job job) {
    workers.complete(
        CompleteRequest.newBuilder()
            .setJobId(job.getId())
            .setFencingToken(job.getLease().getFencingToken())
            .setLeaseId(job.getLease().getLeaseId())
            .setWorkerId("w1")
            .build());
  }

  public void failPermanently(Job job) {
    workers.fail(
        FailRequest.newBuilder()
            .setJobId(job.getId())
            .setFencingToken(job.getLease().getFencingToken())
            .setLeaseId(job.getLease().getLeaseId())
            .setWorkerId("w1")
            .setKind(ErrorKind.ERROR_KIND_PERMANENT)
            .setErrorType("BadPayload")
            .setErrorMessage("no recipient")
            .build());
  }

  /**
   * Asserts an error answer's status and exact shape ({@code {"error":{...}}} with only the known
   * members) and returns the inner error object.
   */
  public static Struct error(HttpResponse<String> response, int status, String code)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    Struct body = struct(response);
    assertThat(body.getFieldsMap()).containsOnlyKeys("error");
    Struct error = body.getFieldsOrThrow("error").getStructValue();
    assertThat(error.getFieldsMap().keySet())
        .contains("code", "message")
        .isSubsetOf("code", "message", "details", "correlation_id");
    assertThat(error.getFieldsOrThrow("code").getStringValue()).isEqualTo(code);
    assertThat(error.getFieldsOrThrow("message").getStringValue()).isNotBlank();
    return error;
  }

  /** The {@code details} of an error as "field: message" lines. */
  public static List<String> details(Struct error) {
    return error.getFieldsOrThrow("details").getListValue().getValuesList().stream()
        .map(Value::getStructValue)
        .peek(d -> assertThat(d.getFieldsMap()).containsOnlyKeys("field", "message"))
        .map(
            d ->
                d.getFieldsOrThrow("field").getStringValue()
                    + ": "
                    + d.getFieldsOrThrow("message").getStringValue())
        .toList();
  }

  @Override
  public void close() {
    channel.shutdownNow();
    coordinator.close();
  }
}
