package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.rpc.ErrorInfo;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.http.HttpEndpoint;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Authenticator;
import io.antrean.coordinator.security.Role;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.TokenFile;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.proto.v1.ProduceResponse;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every RPC of every service refuses missing, unknown and wrong-role credentials. */
@Timeout(60)
class AuthorizationTest {
  @TempDir Path dir;
  private Coordinator coordinator;
  private ManagedChannel channel;
  private final Map<Role, String> tokens = new EnumMap<>(Role.class);
  private String otherWorker;
  private String mailProducer;
  private String mailWorker;

  @BeforeEach
  void start() throws Exception {
    Path file = dir.resolve("tokens.json");
    Instant now = Instant.now();
    for (Role role : Role.values()) {
      tokens.put(role, TokenFile.create(file, role.label(), EnumSet.of(role), Set.of(), now));
    }
    otherWorker = TokenFile.create(file, "worker-b", EnumSet.of(Role.WORKER), Set.of(), now);
    mailProducer = TokenFile.create(file, "mailer", EnumSet.of(Role.PRODUCER), Set.of("mail"), now);
    mailWorker =
        TokenFile.create(file, "mail-worker", EnumSet.of(Role.WORKER), Set.of("mail"), now);
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
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    coordinator.close();
  }

  static Stream<MethodDescriptor<?, ?>> everyMethod() {
    List<MethodDescriptor<?, ?>> all = new ArrayList<>();
    for (ServiceDescriptor service :
        List.of(
            JobServiceGrpc.getServiceDescriptor(),
            WorkerServiceGrpc.getServiceDescriptor(),
            AdminServiceGrpc.getServiceDescriptor())) {
      all.addAll(service.getMethods());
    }
    return all.stream();
  }

  @ParameterizedTest
  @MethodSource("everyMethod")
  void aCallWithoutCredentialsIsUnauthenticated(MethodDescriptor<?, ?> method) {
    assertRefused(call(channel, method), Status.Code.UNAUTHENTICATED, "CREDENTIALS_MISSING");
  }

  @ParameterizedTest
  @MethodSource("everyMethod")
  void aCallWithAnUnknownTokenIsUnauthenticated(MethodDescriptor<?, ?> method) {
    assertRefused(
        call(as("antrean_not-a-token"), method),
        Status.Code.UNAUTHENTICATED,
        "CREDENTIALS_INVALID");
  }

  @ParameterizedTest
  @MethodSource("everyMethod")
  void aCallOutsideTheCallersRolesIsPermissionDeniedAndInsideThemGoesThrough(
      MethodDescriptor<?, ?> method) {
    Set<Role> allowed = AccessPolicy.rolesFor(method.getFullMethodName());
    for (Role role : Role.values()) {
      StatusRuntimeException error = call(as(tokens.get(role)), method);
      if (allowed.contains(role)) {
        assertThat(error == null ? Status.Code.OK : error.getStatus().getCode())
            .as("%s as %s", method.getFullMethodName(), role)
            .isNotIn(Status.Code.UNAUTHENTICATED, Status.Code.PERMISSION_DENIED);
      } else {
        assertRefused(error, Status.Code.PERMISSION_DENIED, "ROLE_NOT_ALLOWED");
      }
    }
  }

  @Test
  void healthChecksNeedNoCredentials() {
    assertThat(
            HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance())
                .getStatus())
        .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
  }

  @Test
  void anIdentityLimitedToQueuesMayNameOnlyThose() {
    JobServiceGrpc.JobServiceBlockingStub mailer =
        JobServiceGrpc.newBlockingStub(as(mailProducer)).withDeadlineAfter(10, TimeUnit.SECONDS);

    assertThat(mailer.enqueue(enqueue("mail")).getJob().getQueue()).isEqualTo("mail");
    assertRefused(
        catching(() -> mailer.enqueue(enqueue(""))),
        Status.Code.PERMISSION_DENIED,
        "QUEUE_NOT_ALLOWED");
    assertRefused(
        catching(() -> mailer.listJobs(io.antrean.proto.v1.ListJobsRequest.getDefaultInstance())),
        Status.Code.PERMISSION_DENIED,
        "QUEUE_NOT_ALLOWED");
  }

  @Test
  void aWorkStreamRefusesEachRequestForAQueueTheIdentityMayNotUseAndGoesOn() throws Exception {
    JobServiceGrpc.newBlockingStub(as(mailProducer))
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .enqueue(enqueue("mail"));
    TestWorkStream stream = new TestWorkStream(as(mailWorker));
    LeaseRequest.Builder lease =
        LeaseRequest.newBuilder()
            .setWorkerId("w1")
            .setWait(com.google.protobuf.Duration.getDefaultInstance());

    stream.lease(1, lease);
    stream.lease(2, lease.clone().setQueue("mail"));

    WorkResponse refused = stream.next();
    assertThat(refused.getRequestId()).isEqualTo(1);
    assertRefused(
        TestWorkStream.error(refused), Status.Code.PERMISSION_DENIED, "QUEUE_NOT_ALLOWED");
    WorkResponse leased = stream.next();
    assertThat(leased.getRequestId()).isEqualTo(2);
    assertThat(leased.getLease().getJobs(0).getQueue()).isEqualTo("mail");
    assertThat(leased.getLease().getJobs(0).getLease().getWorkerId()).isEqualTo("mail-worker/w1");
    stream.requests.onCompleted();
  }

  @Test
  void aProduceStreamRefusesEachEnqueueForAQueueTheIdentityMayNotUseAndGoesOn() throws Exception {
    TestProduceStream stream = new TestProduceStream(as(mailProducer));

    stream.enqueue(1, enqueue("").toBuilder());
    ProduceResponse refused = stream.next();
    assertThat(refused.getRequestId()).isEqualTo(1);
    assertRefused(
        TestProduceStream.error(refused), Status.Code.PERMISSION_DENIED, "QUEUE_NOT_ALLOWED");
    stream.enqueue(2, enqueue("mail").toBuilder());
    ProduceResponse stored = stream.next();
    assertThat(stored.getRequestId()).isEqualTo(2);
    assertThat(stored.getEnqueue().getJob().getQueue()).isEqualTo("mail");
    stream.requests.onCompleted();
  }

  @Test
  void aWorkerTokenCannotUseAnotherWorkersLeaseEvenWithItsTokenAndWorkerId() {
    JobServiceGrpc.newBlockingStub(as(tokens.get(Role.PRODUCER)))
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .enqueue(enqueue(""));
    WorkerServiceGrpc.WorkerServiceBlockingStub holder = workers(tokens.get(Role.WORKER));
    WorkerServiceGrpc.WorkerServiceBlockingStub intruder = workers(otherWorker);
    Job leased =
        holder
            .lease(
                LeaseRequest.newBuilder()
                    .setWorkerId("w1")
                    .setWait(com.google.protobuf.Duration.getDefaultInstance())
                    .build())
            .getJobs(0);
    long token = leased.getLease().getFencingToken();
    assertThat(leased.getLease().getWorkerId()).isEqualTo("worker/w1");

    assertThat(
            intruder
                .heartbeat(
                    HeartbeatRequest.newBuilder()
                        .setWorkerId("w1")
                        .addLeases(
                            LeaseRef.newBuilder()
                                .setJobId(leased.getId())
                                .setFencingToken(token)
                                .setLeaseId(leased.getLease().getLeaseId()))
                        .build())
                .getLeases(0)
                .getStatus())
        .isEqualTo(LeaseStatus.LEASE_STATUS_LOST);
    assertRefused(
        catching(() -> intruder.complete(complete(leased))),
        Status.Code.FAILED_PRECONDITION,
        "LEASE_LOST");

    Job seen =
        JobServiceGrpc.newBlockingStub(as(tokens.get(Role.PRODUCER)))
            .withDeadlineAfter(10, TimeUnit.SECONDS)
            .getJob(GetJobRequest.newBuilder().setId(leased.getId()).build())
            .getJob();
    assertThat(seen.getState()).isEqualTo(JobState.JOB_STATE_RUNNING);
    assertThat(seen.getLease().getWorkerId()).isEqualTo("worker/w1");
    assertThat(seen.getLease().getFencingToken()).isZero();
    assertThat(seen.getHistoryList())
        .anySatisfy(a -> assertThat(a.getWorkerId()).isEqualTo("worker-b/w1"));
    assertThat(seen.getHistoryList())
        .filteredOn(a -> a.getOutcome() == AttemptOutcome.ATTEMPT_OUTCOME_RUNNING)
        .singleElement()
        .satisfies(a -> assertThat(a.getFencingToken()).isZero());

    holder.complete(complete(leased));
  }

  @Test
  void theSameWorkerWithTheRightTokenButAGuessedOrMissingLeaseIdCannotComplete() {
    JobServiceGrpc.newBlockingStub(as(tokens.get(Role.PRODUCER)))
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .enqueue(enqueue(""));
    WorkerServiceGrpc.WorkerServiceBlockingStub holder = workers(tokens.get(Role.WORKER));
    Job leased =
        holder
            .lease(
                LeaseRequest.newBuilder()
                    .setWorkerId("w1")
                    .setWait(com.google.protobuf.Duration.getDefaultInstance())
                    .build())
            .getJobs(0);
    String leaseId = leased.getLease().getLeaseId();
    assertThat(leaseId).matches("[0-9a-f]{32}");

    CompleteRequest guessed = complete(leased).toBuilder().setLeaseId("0".repeat(32)).build();
    assertRefused(
        catching(() -> holder.complete(guessed)), Status.Code.FAILED_PRECONDITION, "LEASE_LOST");
    CompleteRequest missing = complete(leased).toBuilder().clearLeaseId().build();
    assertRefused(
        catching(() -> holder.complete(missing)), Status.Code.FAILED_PRECONDITION, "LEASE_LOST");
    StatusRuntimeException malformed =
        catching(() -> holder.complete(complete(leased).toBuilder().setLeaseId("xyz").build()));
    assertThat(malformed.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(malformed.getStatus().getDescription()).contains("lease_id");

    Job seen =
        JobServiceGrpc.newBlockingStub(as(tokens.get(Role.ADMIN)))
            .withDeadlineAfter(10, TimeUnit.SECONDS)
            .getJob(GetJobRequest.newBuilder().setId(leased.getId()).build())
            .getJob();
    assertThat(seen.getLease().getWorkerId()).isEqualTo("worker/w1");
    assertThat(seen.getLease().getLeaseId()).isEmpty();
    assertThat(seen.toByteString().toStringUtf8()).doesNotContain(leaseId);
    assertThat(seen.getHistoryList())
        .filteredOn(a -> a.getOutcome() == AttemptOutcome.ATTEMPT_OUTCOME_STALE_COMPLETION_REJECTED)
        .hasSize(2)
        .allSatisfy(a -> assertThat(a.getWorkerId()).isEqualTo("worker/w1"));
    io.antrean.proto.v1.ListJobsResponse listed =
        JobServiceGrpc.newBlockingStub(as(tokens.get(Role.ADMIN)))
            .withDeadlineAfter(10, TimeUnit.SECONDS)
            .listJobs(io.antrean.proto.v1.ListJobsRequest.getDefaultInstance());
    assertThat(listed.toByteString().toStringUtf8()).doesNotContain(leaseId);

    holder.complete(complete(leased));
    assertThat(
            JobServiceGrpc.newBlockingStub(as(tokens.get(Role.ADMIN)))
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .getJob(GetJobRequest.newBuilder().setId(leased.getId()).build())
                .getJob()
                .getState())
        .isEqualTo(JobState.JOB_STATE_SUCCEEDED);
  }

  private WorkerServiceGrpc.WorkerServiceBlockingStub workers(String token) {
    return WorkerServiceGrpc.newBlockingStub(as(token)).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  private static EnqueueRequest enqueue(String queue) {
    return EnqueueRequest.newBuilder()
        .setQueue(queue)
        .setType("t")
        .setPayload(ByteString.copyFromUtf8("{}"))
        .build();
  }

  /** The holder's own Complete of the job it leased: job id, fencing token and lease id. */
  private static CompleteRequest complete(Job leased) {
    return CompleteRequest.newBuilder()
        .setJobId(leased.getId())
        .setFencingToken(leased.getLease().getFencingToken())
        .setLeaseId(leased.getLease().getLeaseId())
        .setWorkerId("w1")
        .build();
  }

  private Channel as(String token) {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return ClientInterceptors.intercept(
        channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** Calls the method with an empty request; the error, or null when it answered OK. */
  @SuppressWarnings("unchecked")
  private static StatusRuntimeException call(Channel channel, MethodDescriptor<?, ?> m) {
    MethodDescriptor<Message, Message> method = (MethodDescriptor<Message, Message>) m;
    Message request =
        ((MethodDescriptor.PrototypeMarshaller<Message>) method.getRequestMarshaller())
            .getMessagePrototype();
    CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS);
    return catching(
        () -> {
          if (method.getType() == MethodDescriptor.MethodType.SERVER_STREAMING) {
            Iterator<Message> it =
                ClientCalls.blockingServerStreamingCall(channel, method, options, request);
            it.hasNext();
          } else {
            ClientCalls.blockingUnaryCall(channel, method, options, request);
          }
        });
  }

  private static StatusRuntimeException catching(Runnable call) {
    try {
      call.run();
      return null;
    } catch (StatusRuntimeException e) {
      return e;
    }
  }

  private static void assertRefused(StatusRuntimeException error, Status.Code code, String reason) {
    assertThat(error).as("expected %s %s", code, reason).isNotNull();
    assertThat(error.getStatus().getCode()).isEqualTo(code);
    com.google.rpc.Status detail = StatusProto.fromThrowable(error);
    assertThat(detail).isNotNull();
    assertThat(detail.getDetailsList())
        .anySatisfy(any -> assertThat(any.unpack(ErrorInfo.class).getReason()).isEqualTo(reason));
  }
}
