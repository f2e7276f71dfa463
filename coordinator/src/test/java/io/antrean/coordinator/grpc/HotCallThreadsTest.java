package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which threads run the calls of a coordinator served over Netty on a store that never blocks: hot
 * calls from their first interceptor to their answer on the network thread that read them, every
 * other call on the coordinator's call threads.
 */
@Timeout(30)
class HotCallThreadsTest {
  private static final String NETWORK_THREAD = "grpc-.*-worker-ELG-.*";
  private static final String CALL_THREAD = "antrean-grpc-call-\\d+";

  @TempDir Path dir;

  private final InterceptedThreads interceptedOn = new InterceptedThreads();

  @Test
  void hotCallsStayOnTheNetworkThreadAndTheOthersRunOnCallThreads() throws Exception {
    try (Coordinator coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir, SqliteOptions.defaults()),
            Settings.defaults().withJobTypes(Set.of("t"), Map.of(), Map.of()),
            Clock.systemUTC(),
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .intercept(interceptedOn))) {
      ManagedChannel channel =
          NettyChannelBuilder.forAddress("127.0.0.1", coordinator.port()).usePlaintext().build();
      try {
        JobServiceGrpc.JobServiceBlockingStub jobs =
            JobServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
        WorkerServiceGrpc.WorkerServiceBlockingStub workers =
            WorkerServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);

        long id =
            jobs.enqueue(
                    EnqueueRequest.newBuilder()
                        .setType("t")
                        .setPayload(ByteString.copyFromUtf8("{}"))
                        .build())
                .getJob()
                .getId();
        workers.lease(
            LeaseRequest.newBuilder()
                .setWorkerId("w")
                .setMaxJobs(1)
                .setWait(com.google.protobuf.Duration.getDefaultInstance())
                .build());
        // What an idle worker sends: no leases.
        workers.heartbeat(HeartbeatRequest.newBuilder().setWorkerId("w").build());
        JobState state =
            jobs.getJob(GetJobRequest.newBuilder().setId(id).build()).getJob().getState();

        assertThat(state).isEqualTo(JobState.JOB_STATE_RUNNING);
      } finally {
        channel.shutdownNow();
      }
    }

    assertThat(interceptedOn.of("Enqueue")).matches(NETWORK_THREAD);
    assertThat(interceptedOn.of("Lease")).matches(NETWORK_THREAD);
    assertThat(interceptedOn.of("Heartbeat")).matches(CALL_THREAD);
    assertThat(interceptedOn.of("GetJob")).matches(CALL_THREAD);
  }
}
