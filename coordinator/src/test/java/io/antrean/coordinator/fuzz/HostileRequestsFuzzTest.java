package io.antrean.coordinator.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.http.HttpEndpoint;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue F2's fuzz suite: over 10,000 malformed, random and mutated requests to every RPC of
 * JobService, WorkerService and AdminService (raw bytes on a real loopback channel) and to every
 * HTTP route, against one real coordinator. No answer may be INTERNAL, UNKNOWN or a 5xx; afterwards
 * the coordinator still runs a job from Enqueue through Lease to Complete, lists every job it
 * stored, and its live heap did not grow from the first round of requests to the second. Seeded
 * ({@code -Dantrean.fuzz.seed=N} replays a run) and bounded by count.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HostileRequestsFuzzTest {
  private static final long SEED = Long.getLong("antrean.fuzz.seed", 20261201L);
  private static final int GRPC_REQUESTS = 7_600;
  private static final int TOKEN_REQUESTS = 400;
  private static final int HTTP_REQUESTS = 2_200;
  private static final int RAW_HTTP_REQUESTS = 150;
  private static final long MAX_HEAP_GROWTH_BYTES = 128L << 20;
  private static final long MAX_ROUND_GROWTH_BYTES = 64L << 20;

  @TempDir Path dir;

  @Test
  void noHostileRequestGetsAServerErrorAndTheCoordinatorStillWorks() throws Exception {
    Random random = new Random(SEED);
    try (Coordinator coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir, SqliteOptions.defaults()),
            Settings.defaults(),
            Clock.systemUTC(),
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)),
            new HttpEndpoint("127.0.0.1", 0))) {
      ManagedChannel channel =
          NettyChannelBuilder.forAddress("127.0.0.1", coordinator.port())
              .usePlaintext()
              .maxInboundMessageSize(256 << 20)
              .build();
      try {
        JobServiceGrpc.JobServiceBlockingStub jobs = JobServiceGrpc.newBlockingStub(channel);
        for (int i = 0; i < 30; i++) {
          jobs.enqueue(job("seed"));
        }
        runCycle(channel, "warm-up");
        long heapBefore = liveHeap();

        GrpcFuzzer grpc = new GrpcFuzzer(channel, random);
        List<GrpcFuzzer.Target> targets =
            GrpcFuzzer.targets(
                JobServiceGrpc.getServiceDescriptor(),
                WorkerServiceGrpc.getServiceDescriptor(),
                AdminServiceGrpc.getServiceDescriptor());
        HttpFuzzer http = new HttpFuzzer("127.0.0.1", coordinator.httpPort(), random);
        long start = System.nanoTime();
        // Two equal rounds: one-time state (caches, metric series, the registry of the workers the
        // fuzz invents) fills in the first; the second must not add to it.
        grpc.run(targets, GRPC_REQUESTS / 2);
        http.run(HttpRoutes.ALL, HTTP_REQUESTS / 2);
        long heapAfterFirstRound = liveHeap();
        grpc.run(targets, GRPC_REQUESTS / 2);
        tamperedPageTokens(channel, grpc, targets, random);
        hugeBatches(grpc, targets);
        http.run(HttpRoutes.ALL, HTTP_REQUESTS / 2);
        http.sendRaw(RAW_HTTP_REQUESTS);
        long heapAfterSecondRound = liveHeap();
        System.out.printf(
            "fuzz: %d ms; live heap before %d MiB, after round one %d MiB, after round two %d MiB%n",
            (System.nanoTime() - start) / 1_000_000,
            heapBefore >> 20,
            heapAfterFirstRound >> 20,
            heapAfterSecondRound >> 20);

        System.out.printf(
            "fuzz seed %d: %d gRPC and %d HTTP requests%n", SEED, grpc.sent(), http.sent());
        assertThat(grpc.sent() + http.sent()).isGreaterThanOrEqualTo(10_000);
        assertThat(grpc.faults()).as("gRPC server faults (seed %d)", SEED).isEmpty();
        assertThat(http.faults()).as("HTTP server faults (seed %d)", SEED).isEmpty();
        // Closed or reset connections are no answer at all; a handful under load is tolerated.
        System.out.printf("HTTP transport errors: %s%n", http.transportErrors());
        assertThat(http.transportErrors().size()).isLessThan(HTTP_REQUESTS / 100);

        runCycle(channel, "after-fuzz");
        everyStoredJobPrintsOverHttp(coordinator.httpPort());
        assertThat(heapAfterSecondRound - heapAfterFirstRound)
            .as("live heap growth in the second round")
            .isLessThan(MAX_ROUND_GROWTH_BYTES);
        assertThat(heapAfterSecondRound - heapBefore).isLessThan(MAX_HEAP_GROWTH_BYTES);
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static EnqueueRequest job(String queue) {
    return EnqueueRequest.newBuilder()
        .setQueue(queue)
        .setType("fuzz.check")
        .setPayload(ByteString.copyFromUtf8("{\"n\":1}"))
        .build();
  }

  /** Enqueue, Lease, Complete in a queue of its own; the job ends SUCCEEDED. */
  private static void runCycle(ManagedChannel channel, String queue) {
    JobServiceGrpc.JobServiceBlockingStub jobs =
        JobServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    WorkerServiceGrpc.WorkerServiceBlockingStub workers =
        WorkerServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    AdminServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .resumeQueue(ResumeQueueRequest.newBuilder().setQueue(queue).build());
    long id = jobs.enqueue(job(queue)).getJob().getId();
    List<Job> leased =
        workers
            .lease(
                LeaseRequest.newBuilder()
                    .setWorkerId("checker")
                    .setQueue(queue)
                    .setWait(Duration.newBuilder().setSeconds(5))
                    .build())
            .getJobsList();
    assertThat(leased).extracting(Job::getId).containsExactly(id);
    workers.complete(
        CompleteRequest.newBuilder()
            .setJobId(id)
            .setFencingToken(leased.get(0).getLease().getFencingToken())
            .setLeaseId(leased.get(0).getLease().getLeaseId())
            .setWorkerId("checker")
            .build());
    assertThat(jobs.getJob(GetJobRequest.newBuilder().setId(id).build()).getJob().getState())
        .isEqualTo(JobState.JOB_STATE_SUCCEEDED);
  }

  /** Real page tokens of ListJobs and ListDeadLetters, damaged, sent back. */
  private static void tamperedPageTokens(
      ManagedChannel channel, GrpcFuzzer grpc, List<GrpcFuzzer.Target> targets, Random random)
      throws InterruptedException {
    String jobsToken =
        JobServiceGrpc.newBlockingStub(channel)
            .listJobs(ListJobsRequest.newBuilder().setPageSize(1).build())
            .getNextPageToken();
    GrpcFuzzer.Target listJobs = target(targets, "ListJobs");
    GrpcFuzzer.Target listDead = target(targets, "ListDeadLetters");
    for (int i = 0; i < TOKEN_REQUESTS; i++) {
      String token = tamper(jobsToken, random);
      if (i % 2 == 0) {
        grpc.send(
            listJobs,
            ListJobsRequest.newBuilder()
                .setPageSize(random.nextInt(5))
                .setPageToken(token)
                .build()
                .toByteArray());
      } else {
        grpc.send(
            listDead,
            ListDeadLettersRequest.newBuilder().setPageToken(token).build().toByteArray());
      }
    }
    grpc.drain();
  }

  private static String tamper(String token, Random random) {
    StringBuilder sb = new StringBuilder(token.isEmpty() ? "AAAA" : token);
    int edits = 1 + random.nextInt(3);
    for (int i = 0; i < edits; i++) {
      int at = random.nextInt(sb.length());
      switch (random.nextInt(4)) {
        case 0 -> sb.setCharAt(at, (char) ('A' + random.nextInt(58)));
        case 1 -> sb.deleteCharAt(at);
        case 2 -> sb.insert(at, "_-=/+");
        default -> sb.append("A".repeat(random.nextInt(50)));
      }
      if (sb.length() == 0) {
        sb.append('Z');
      }
    }
    return sb.toString();
  }

  /** Batches far over the limit, and filters that match everything. */
  private static void hugeBatches(GrpcFuzzer grpc, List<GrpcFuzzer.Target> targets)
      throws InterruptedException {
    EnqueueBatchRequest.Builder huge = EnqueueBatchRequest.newBuilder();
    for (int i = 0; i < 20_000; i++) {
      huge.addJobs(job("huge"));
    }
    GrpcFuzzer.Target batch = target(targets, "EnqueueBatch");
    for (int i = 0; i < 3; i++) {
      grpc.send(batch, huge.build().toByteArray());
    }
    grpc.send(
        target(targets, "PurgeDeadLetters"),
        PurgeDeadLettersRequest.newBuilder().setAll(true).build().toByteArray());
    grpc.send(
        target(targets, "RedriveDeadLetters"),
        RedriveDeadLettersRequest.newBuilder()
            .setFilter(DeadLetterFilter.newBuilder().setQueue("default"))
            .setRatePerSecond(Double.MAX_VALUE)
            .setLimit(Integer.MAX_VALUE)
            .build()
            .toByteArray());
    grpc.drain();
  }

  private static GrpcFuzzer.Target target(List<GrpcFuzzer.Target> targets, String method) {
    return targets.stream()
        .filter(t -> t.method().getBareMethodName().equals(method))
        .findFirst()
        .orElseThrow();
  }

  /** Pages through every job over HTTP (the strictest printer): each page must answer 200. */
  private static void everyStoredJobPrintsOverHttp(int port) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    List<String> failures = new ArrayList<>();
    for (String path : List.of("/v1/jobs?page_size=1000", "/v1/dead-letters?page_size=1000")) {
      String token = "";
      for (int page = 0; page < 200; page++) {
        String uri =
            "http://127.0.0.1:" + port + path + (token.isEmpty() ? "" : "&page_token=" + token);
        HttpResponse<String> r =
            client.send(
                HttpRequest.newBuilder(URI.create(uri))
                    .timeout(java.time.Duration.ofSeconds(20))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
          failures.add(uri + " -> " + r.statusCode() + " " + r.body());
          break;
        }
        int at = r.body().indexOf("\"next_page_token\":\"");
        token = at < 0 ? "" : r.body().substring(at + 19, r.body().indexOf('"', at + 19));
        if (token.isEmpty()) {
          break;
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  private static long liveHeap() {
    for (int i = 0; i < 3; i++) {
      ManagementFactory.getMemoryMXBean().gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
