package io.antrean.coordinator.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.grpc.NetworkThreads;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On PostgreSQL, whose writes block their thread, a Work or Produce stream's messages are read and
 * checked on the network thread, and their handlers run on the call threads: a write that waits for
 * the database never holds up the network thread, which serves every other connection.
 */
@Timeout(60)
class PostgresStreamThreadsTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  @Test
  void aProduceStreamWaitingOnTheDatabaseLeavesTheNetworkThreadServing() throws Exception {
    PostgresOptions options = postgres.freshSchema();
    Map<String, String> startedOn = new ConcurrentHashMap<>();
    ServerInterceptor recorder =
        new ServerInterceptor() {
          @Override
          public <Q, A> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
            startedOn.put(
                call.getMethodDescriptor().getBareMethodName(), Thread.currentThread().getName());
            return next.startCall(call, headers);
          }
        };
    List<ManagedChannel> channels = new ArrayList<>();
    try (NetworkThreads network = NetworkThreads.of(1);
        Coordinator coordinator =
            Coordinator.start(
                PostgresJobStore.open(options),
                Settings.defaults().withJobTypes(Set.of("t"), Map.of(), Map.of()),
                Clock.systemUTC(),
                network
                    .serve(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)))
                    .intercept(recorder));
        Connection locker = postgres.connect()) {
      ManagedChannel producing = channelTo(coordinator, channels);
      ManagedChannel reading = channelTo(coordinator, channels);
      locker.setAutoCommit(false);
      try (Statement lock = locker.createStatement()) {
        // Inserts wait for this lock; reads do not.
        lock.execute("LOCK TABLE " + options.schema() + ".jobs IN EXCLUSIVE MODE");
      }

      CompletableFuture<ProduceResponse> answer = new CompletableFuture<>();
      StreamObserver<ProduceRequest> stream =
          JobServiceGrpc.newStub(producing).produce(answerInto(answer));
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
      assertThat(answer).isNotDone();

      locker.commit();
      ProduceResponse enqueued = answer.get(10, TimeUnit.SECONDS);
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

    assertThat(startedOn.get("Produce")).matches("antrean-network-\\d+-\\d+");
    assertThat(startedOn.get("GetJob")).startsWith("antrean-grpc-call");
  }

  private static ManagedChannel channelTo(Coordinator coordinator, List<ManagedChannel> opened) {
    ManagedChannel channel =
        NettyChannelBuilder.forAddress("127.0.0.1", coordinator.port()).usePlaintext().build();
    opened.add(channel);
    return channel;
  }

  private static StreamObserver<ProduceResponse> answerInto(
      CompletableFuture<ProduceResponse> answer) {
    return new StreamObserver<>() {
      @Override
      public void onNext(ProduceResponse value) {
        answer.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        answer.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        answer.completeExceptionally(new IllegalStateException("the stream ended unanswered"));
      }
    };
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
