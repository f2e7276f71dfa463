package io.antrean.coordinator.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.rpc.ErrorInfo;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.http.HttpEndpoint;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.WatchJobRequest;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.MetadataUtils;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls that name a job only by id are checked against the caller's queues, on gRPC and HTTP: an
 * identity limited to queue {@code mail} cannot read, watch or cancel a job of {@code billing}, and
 * cannot tell it from a job that does not exist.
 */
@Timeout(60)
class JobQueueAccessTest {
  private static final long MISSING = 987_654;
  @TempDir Path dir;
  private Coordinator coordinator;
  private ManagedChannel channel;
  private String everything;
  private String mailer;
  private String mailAdmin;
  private long mailJob;
  private long billingJob;

  @BeforeEach
  void start() throws Exception {
    Path file = dir.resolve("tokens.json");
    Instant now = Instant.now();
    everything = TokenFile.create(file, "ops", EnumSet.of(Role.ADMIN), Set.of(), now);
    mailer = TokenFile.create(file, "mailer", EnumSet.of(Role.PRODUCER), Set.of("mail"), now);
    mailAdmin = TokenFile.create(file, "mail-ops", EnumSet.of(Role.ADMIN), Set.of("mail"), now);
    String name = InProcessServerBuilder.generateName();
    coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir, SqliteOptions.defaults()),
            Settings.defaults(),
            Clock.systemUTC(),
            InProcessServerBuilder.forName(name),
            new HttpEndpoint("127.0.0.1", 0),
            SecurityConfig.open().withAuthenticator(Authenticator.fromFile(file)));
    channel = InProcessChannelBuilder.forName(name).build();
    mailJob = jobs(everything).enqueue(enqueue("mail")).getJob().getId();
    billingJob = jobs(everything).enqueue(enqueue("billing")).getJob().getId();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    coordinator.close();
  }

  @Test
  void aQueueLimitedProducerReachesItsOwnQueuesJobsById() {
    assertThat(jobs(mailer).getJob(get(mailJob)).getJob().getQueue()).isEqualTo("mail");
    assertThat(jobs(mailer).cancelJob(cancel(mailJob)).getJob().getState())
        .isEqualTo(JobState.JOB_STATE_CANCELLED);
  }

  @Test
  void aQueueLimitedProducerCannotGetWatchOrCancelAnotherQueuesJobOverGrpc() {
    assertDenied(catching(() -> jobs(mailer).getJob(get(billingJob))));
    assertDenied(catching(() -> jobs(mailer).cancelJob(cancel(billingJob))));
    assertDenied(
        catching(
            () ->
                jobs(mailer)
                    .watchJob(WatchJobRequest.newBuilder().setId(billingJob).build())
                    .hasNext()));

    assertThat(jobs(everything).getJob(get(billingJob)).getJob().getState())
        .as("the refused cancel changed nothing")
        .isEqualTo(JobState.JOB_STATE_PENDING);
  }

  @Test
  void aMissingJobLooksLikeAForeignOneToAQueueLimitedIdentity() {
    StatusRuntimeException foreign = catching(() -> jobs(mailer).getJob(get(billingJob)));
    StatusRuntimeException missing = catching(() -> jobs(mailer).getJob(get(MISSING)));

    assertDenied(missing);
    assertThat(missing.getStatus().getDescription())
        .isEqualTo(foreign.getStatus().getDescription().replace("" + billingJob, "" + MISSING));
    assertThat(catching(() -> jobs(everything).getJob(get(MISSING))).getStatus().getCode())
        .as("an identity allowed every queue still learns that the job does not exist")
        .isEqualTo(Status.Code.NOT_FOUND);
  }

  @Test
  void aQueueLimitedAdminCannotReachAnotherQueuesDeadLettersById() {
    AdminServiceGrpc.AdminServiceBlockingStub admin =
        AdminServiceGrpc.newBlockingStub(as(mailAdmin)).withDeadlineAfter(10, TimeUnit.SECONDS);
    DeadLetterFilter mail = DeadLetterFilter.newBuilder().setQueue("mail").build();

    assertDenied(
        catching(
            () ->
                admin.getDeadLetter(GetDeadLetterRequest.newBuilder().setId(billingJob).build())));
    assertDenied(
        catching(
            () ->
                admin.redriveDeadLetters(
                    RedriveDeadLettersRequest.newBuilder()
                        .setFilter(mail)
                        .addIds(mailJob)
                        .addIds(billingJob)
                        .build())));
    assertDenied(
        catching(
            () ->
                admin.purgeDeadLetters(
                    PurgeDeadLettersRequest.newBuilder()
                        .setFilter(mail)
                        .addIds(billingJob)
                        .build())));
    assertThat(jobs(everything).getJob(get(billingJob)).getJob().getState())
        .isEqualTo(JobState.JOB_STATE_PENDING);
  }

  @Test
  void aQueueLimitedProducerCannotGetOrCancelAnotherQueuesJobOverHttp() throws Exception {
    HttpResponse<String> read = http("GET", "/v1/jobs/" + billingJob, mailer);
    assertThat(read.statusCode()).isEqualTo(403);
    assertThat(read.body()).contains("QUEUE_NOT_ALLOWED").doesNotContain("billing");
    HttpResponse<String> cancel = http("POST", "/v1/jobs/" + billingJob + ":cancel", mailer);
    assertThat(cancel.statusCode()).isEqualTo(403);
    assertThat(cancel.body()).contains("QUEUE_NOT_ALLOWED");
    assertThat(http("GET", "/v1/jobs/" + MISSING, mailer).statusCode()).isEqualTo(403);

    assertThat(http("GET", "/v1/jobs/" + mailJob, mailer).statusCode()).isEqualTo(200);
    assertThat(http("GET", "/v1/jobs/" + MISSING, everything).statusCode()).isEqualTo(404);
    assertThat(jobs(everything).getJob(get(billingJob)).getJob().getState())
        .isEqualTo(JobState.JOB_STATE_PENDING);
  }

  @Test
  void aQueueLimitedProducerCannotDependOnOrReadTheResultsOfAnotherQueuesJob() throws Exception {
    long before = jobs(everything).listJobs(ListJobsRequest.getDefaultInstance()).getJobsCount();

    assertDenied(
        catching(
            () ->
                jobs(mailer)
                    .enqueue(enqueue("mail").toBuilder().addDependsOn(billingJob).build())));
    assertDenied(
        catching(
            () -> jobs(mailer).enqueue(enqueue("mail").toBuilder().addDependsOn(MISSING).build())));
    assertThat(
            catching(
                    () ->
                        jobs(everything)
                            .enqueue(enqueue("mail").toBuilder().addDependsOn(MISSING).build()))
                .getStatus()
                .getCode())
        .as("an identity allowed every queue learns that the dependency does not exist")
        .isEqualTo(Status.Code.NOT_FOUND);
    assertThat(jobs(everything).listJobs(ListJobsRequest.getDefaultInstance()).getJobsCount())
        .as("nothing stored")
        .isEqualTo(before);

    long fanIn =
        jobs(everything)
            .enqueue(
                enqueue("mail").toBuilder().addDependsOn(mailJob).addDependsOn(billingJob).build())
            .getJob()
            .getId();
    assertThat(
            jobs(mailer)
                .enqueue(enqueue("mail").toBuilder().addDependsOn(mailJob).build())
                .getJob()
                .getState())
        .isEqualTo(JobState.JOB_STATE_WAITING);
    assertDenied(
        catching(
            () ->
                jobs(mailer)
                    .listDependencies(ListDependenciesRequest.newBuilder().setId(fanIn).build())));
    assertThat(http("GET", "/v1/jobs/" + fanIn + "/dependencies", mailer).statusCode())
        .isEqualTo(403);
    assertThat(http("GET", "/v1/jobs/" + fanIn + "/dependencies", everything).body())
        .contains("\"id\":\"" + billingJob + "\"");
  }

  private static void assertDenied(StatusRuntimeException error) {
    assertThat(error).as("expected PERMISSION_DENIED").isNotNull();
    assertThat(error.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(error.getStatus().getDescription()).doesNotContain("billing");
    com.google.rpc.Status detail = StatusProto.fromThrowable(error);
    assertThat(detail).isNotNull();
    assertThat(detail.getDetailsList())
        .anySatisfy(
            any ->
                assertThat(any.unpack(ErrorInfo.class).getReason()).isEqualTo("QUEUE_NOT_ALLOWED"));
  }

  private JobServiceGrpc.JobServiceBlockingStub jobs(String token) {
    return JobServiceGrpc.newBlockingStub(as(token)).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  private Channel as(String token) {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return ClientInterceptors.intercept(
        channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private HttpResponse<String> http(String method, String path, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + token);
    if (method.equals("GET")) {
      b.GET();
    } else {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString("{}"));
    }
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static EnqueueRequest enqueue(String queue) {
    return EnqueueRequest.newBuilder()
        .setQueue(queue)
        .setType("t")
        .setPayload(ByteString.copyFromUtf8("{}"))
        .build();
  }

  private static GetJobRequest get(long id) {
    return GetJobRequest.newBuilder().setId(id).build();
  }

  private static CancelJobRequest cancel(long id) {
    return CancelJobRequest.newBuilder().setId(id).build();
  }

  private static StatusRuntimeException catching(Runnable call) {
    try {
      call.run();
      return null;
    } catch (StatusRuntimeException e) {
      return e;
    }
  }
}
