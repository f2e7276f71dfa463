package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client with gRPC's default limit on what it receives (4 MiB, the same in most languages) reads
 * every Lease, ListJobs and ListDeadLetters answer, however long the payloads and errors of the
 * jobs it asks for: over a real loopback connection, jobs with the longest payload the coordinator
 * accepts, and a thousand dead letters with errors of 4 KiB.
 */
@Timeout(60)
class AnswerSizeTest {
  private static final int JOBS = 5;

  @TempDir Path dir;
  private Coordinator coordinator;
  private ManagedChannel channel;
  private final List<Long> enqueued = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir, SqliteOptions.defaults()),
            Settings.defaults().withJobTypes(Set.of("t"), Map.of(), Map.of()),
            Clock.systemUTC(),
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)));
    // A plain channel: gRPC's own 4 MiB limit on a received message.
    channel =
        NettyChannelBuilder.forAddress("127.0.0.1", coordinator.port()).usePlaintext().build();
    ByteString longest = ByteString.copyFrom(new byte[Settings.defaults().maxPayloadBytes()]);
    for (int i = 0; i < JOBS; i++) {
      enqueued.add(
          jobs()
              .enqueue(EnqueueRequest.newBuilder().setType("t").setPayload(longest).build())
              .getJob()
              .getId());
    }
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow();
    coordinator.close();
  }

  private JobServiceGrpc.JobServiceBlockingStub jobs() {
    return JobServiceGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS);
  }

  @Test
  void everyLeaseOfTheLongestPayloadsIsRead() {
    List<Long> leased = new ArrayList<>();
    List<Integer> answers = new ArrayList<>();
    while (leased.size() < JOBS) {
      List<Job> answer =
          WorkerServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(20, TimeUnit.SECONDS)
              .lease(
                  LeaseRequest.newBuilder()
                      .setWorkerId("w")
                      .setMaxJobs(25)
                      .setWait(Duration.getDefaultInstance())
                      .build())
              .getJobsList();
      answers.add(answer.size());
      answer.forEach(j -> leased.add(j.getId()));
    }

    assertThat(answers).containsExactly(2, 2, 1);
    assertThat(leased).containsExactlyElementsOf(enqueued);
  }

  @Test
  void everyPageOfTheLongestPayloadsIsRead() {
    List<Long> listed = new ArrayList<>();
    String token = "";
    do {
      ListJobsResponse page =
          jobs()
              .listJobs(
                  ListJobsRequest.newBuilder()
                      .setOldestFirst(true)
                      .setPageSize(100)
                      .setPageToken(token)
                      .build());
      assertThat(page.getJobsCount()).isBetween(1, 2);
      page.getJobsList().forEach(j -> listed.add(j.getId()));
      token = page.getNextPageToken();
    } while (!token.isEmpty());

    assertThat(listed).containsExactlyElementsOf(enqueued);
  }

  @Test
  void everyPageOfDeadLettersWithLongErrorsIsRead() {
    int dead = 1000;
    EnqueueBatchRequest.Builder batch = EnqueueBatchRequest.newBuilder();
    for (int i = 0; i < dead; i++) {
      batch.addJobs(EnqueueRequest.newBuilder().setQueue("dead").setType("t"));
    }
    jobs().enqueueBatch(batch.build());
    String error = "e".repeat(4096);
    WorkerServiceGrpc.WorkerServiceBlockingStub workers =
        WorkerServiceGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
    int failed = 0;
    while (failed < dead) {
      for (Job job :
          workers
              .lease(
                  LeaseRequest.newBuilder()
                      .setWorkerId("w")
                      .setQueue("dead")
                      .setMaxJobs(256)
                      .setWait(Duration.getDefaultInstance())
                      .build())
              .getJobsList()) {
        workers.fail(
            FailRequest.newBuilder()
                .setJobId(job.getId())
                .setFencingToken(job.getLease().getFencingToken())
                .setLeaseId(job.getLease().getLeaseId())
                .setWorkerId("w")
                .setKind(ErrorKind.ERROR_KIND_PERMANENT)
                .setErrorType("E")
                .setErrorMessage(error)
                .build());
        failed++;
      }
    }

    List<Integer> pages = new ArrayList<>();
    String token = "";
    do {
      ListDeadLettersResponse page =
          AdminServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(20, TimeUnit.SECONDS)
              .listDeadLetters(
                  ListDeadLettersRequest.newBuilder()
                      .setPageSize(1000)
                      .setPageToken(token)
                      .build());
      pages.add(page.getJobsCount());
      token = page.getNextPageToken();
    } while (!token.isEmpty());

    assertThat(pages.stream().mapToInt(Integer::intValue).sum()).isEqualTo(dead);
    assertThat(pages).hasSizeGreaterThan(1);
  }
}
