package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.security.Authenticator;
import io.antrean.coordinator.security.Role;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.TokenFile;
import io.antrean.coordinator.store.postgres.PostgresJobStore;
import io.antrean.coordinator.store.postgres.PostgresOptions;
import io.antrean.coordinator.store.postgres.TestPostgres;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.HeartbeatResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which threads run the calls of a coordinator on PostgreSQL, whose writes block their thread: a
 * Work or Produce stream's messages are read and checked on the network thread and their handlers
 * run on the call threads, as does every other call; so a write that waits for the database never
 * holds up the network thread, which serves every other connection. The handlers run in the call's
 * context: a lease taken on a Work stream is held under the caller's identity, as a unary call's.
 */
@Timeout(60)
class HotCallThreadsOnPostgresTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private final InterceptedThreads interceptedOn = new InterceptedThreads();

  @Test
  void aProduceStreamWaitingOnTheDatabaseLeavesTheNetworkThreadServing() throws Exception {
    PostgresOptions options = postgres.freshSchema();
    List<ManagedChannel> channels = new ArrayList<>();
    try (NetworkThreads network = NetworkThreads.of(1);
        Coordinator coordinator =
            Coordinator.start(
                PostgresJobStore.open(options),
                Settings.defaults().withJobTypes(Set.of("t"), Map.of(), Map.of()),
                Clock.systemUTC(),
                network
                    .serve(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)))
                    .intercept(interceptedOn));
        Connection locker =
            DriverManager.getConnection(options.jdbcUrl(), options.user(), options.password())) {
      ManagedChannel producing = channelTo(coordinator, channels);
      ManagedChannel reading = channelTo(coordinator, channels);
      locker.setAutoCommit(false);
      try (Statement lock = locker.createStatement()) {
        // Inserts wait for this lock; reads do not.
        lock.execute("LOCK TABLE " + options.schema() + ".jobs IN EXCLUSIVE MODE");
      }

      FirstAnswer<ProduceResponse> answer = new FirstAnswer<>();
      StreamObserver<ProduceRequest> stream = JobServiceGrpc.newStub(producing).produce(answer);
      stream.onNext(
          ProduceRequest.newBuilder()
              .setRequestId(1)
              .setEnqueue(
                  EnqueueRequest.newBuilder()
                      .setType("t")
                      .setPayload(ByteString.copyFromUtf8("{}")))
              .build());
      awaitAnInsertWaitingFor(locker, options.schema());

      // The one network thread still reads and answers another connection's call.
      assertThatThrownBy(
              () ->
                  JobServiceGrpc.newBlockingStub(reading)
                      .withDeadlineAfter(10, TimeUnit.SECONDS)
                      .getJob(GetJobRequest.newBuilder().setId(Long.MAX_VALUE).build()))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
      assertThat(answer.isDone()).isFalse();

      locker.commit();
      ProduceResponse enqueued = answer.get();
      assertThat(enqueued.getRequestId()).isEqualTo(1);
      assertThat(enqueued.hasEnqueue()).as("answer: %s", enqueued).isTrue();
      assertThat(
              JobServiceGrpc.newBlockingStub(reading)
                  .withDeadlineAfter(10, TimeUnit.SECONDS)
                  .getJob(
                      GetJobRequest.newBuilder()
                          .setId(enqueued.getEnqueue().getJob().getId())
                          .build())
                  .getJob()
                  .getType())
          .isEqualTo("t");
      stream.onCompleted();
    } finally {
      channels.forEach(ManagedChannel::shutdownNow);
    }

    assertThat(interceptedOn.of("Produce")).matches("antrean-network-\\d+-\\d+");
    assertThat(interceptedOn.of("GetJob")).startsWith("antrean-grpc-call");
  }

  @Test
  void aLeaseTakenOnAWorkStreamIsHeldUnderTheCallersIdentity(@TempDir Path dir) throws Exception {
    Path tokens = dir.resolve("tokens.json");
    Instant now = Instant.now();
    String producer = TokenFile.create(tokens, "p", EnumSet.of(Role.PRODUCER), Set.of(), now);
    String worker = TokenFile.create(tokens, "w", EnumSet.of(Role.WORKER), Set.of(), now);
    List<ManagedChannel> channels = new ArrayList<>();
    try (Coordinator coordinator =
        Coordinator.start(
            PostgresJobStore.open(postgres.freshSchema()),
            Settings.defaults().withJobTypes(Set.of("t"), Map.of(), Map.of()),
            Clock.systemUTC(),
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)),
            null,
            SecurityConfig.open().withAuthenticator(Authenticator.fromFile(tokens)))) {
      ManagedChannel channel = channelTo(coordinator, channels);
      JobServiceGrpc.newBlockingStub(as(channel, producer))
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .enqueue(
              EnqueueRequest.newBuilder()
                  .setType("t")
                  .setPayload(ByteString.copyFromUtf8("{}"))
                  .build());

      FirstAnswer<WorkResponse> leased = new FirstAnswer<>();
      StreamObserver<WorkRequest> work =
          WorkerServiceGrpc.newStub(as(channel, worker)).work(leased);
      work.onNext(
          WorkRequest.newBuilder()
              .setRequestId(1)
              .setLease(LeaseRequest.newBuilder().setWorkerId("w1").setMaxJobs(1))
              .build());
      Job job = leased.get().getLease().getJobs(0);
      // A heartbeat is a unary call, on the call threads: it finds the lease the stream took.
      HeartbeatResponse beat =
          WorkerServiceGrpc.newBlockingStub(as(channel, worker))
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .heartbeat(
                  HeartbeatRequest.newBuilder()
                      .setWorkerId("w1")
                      .addLeases(
                          LeaseRef.newBuilder()
                              .setJobId(job.getId())
                              .setFencingToken(job.getLease().getFencingToken())
                              .setLeaseId(job.getLease().getLeaseId()))
                      .build());
      work.onCompleted();

      assertThat(beat.getLeases(0).getStatus()).isEqualTo(LeaseStatus.LEASE_STATUS_EXTENDED);
      assertThat(
              JobServiceGrpc.newBlockingStub(as(channel, producer))
                  .withDeadlineAfter(10, TimeUnit.SECONDS)
                  .getJob(GetJobRequest.newBuilder().setId(job.getId()).build())
                  .getJob()
                  .getLease()
                  .getWorkerId())
          .isEqualTo("w/w1");
    } finally {
      channels.forEach(ManagedChannel::shutdownNow);
    }
  }

  private static Channel as(Channel channel, String token) {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return ClientInterceptors.intercept(
        channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static ManagedChannel channelTo(Coordinator coordinator, List<ManagedChannel> opened) {
    ManagedChannel channel =
        NettyChannelBuilder.forAddress("127.0.0.1", coordinator.port()).usePlaintext().build();
    opened.add(channel);
    return channel;
  }

  /** Polls, for at most 10 s, until a session waits for the lock on the schema's jobs table. */
  private static void awaitAnInsertWaitingFor(Connection connection, String schema)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      try (Statement statement = connection.createStatement();
          ResultSet waiting =
              statement.executeQuery(
                  "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = '"
                      + schema
                      + ".jobs'::regclass")) {
        waiting.next();
        if (waiting.getLong(1) > 0) {
          return;
        }
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
    throw new AssertionError("no insert waited for the lock on " + schema + ".jobs within 10 s");
  }
}
