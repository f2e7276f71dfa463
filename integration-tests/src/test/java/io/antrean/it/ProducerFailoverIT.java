package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.client.GrpcAntreanClient;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.QueueStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer on the Java client, whose Enqueues travel on a Produce stream, keeps enqueuing while
 * the coordinator its stream goes to is killed with {@code kill -9}: every Enqueue returns OK (the
 * ones the broken stream left unanswered are sent again to the other coordinator), and every job it
 * was told was stored is stored once, with its payload.
 */
@Timeout(300)
class ProducerFailoverIT {
  private static final String QUEUE = "failover";
  private static final int THREADS = 4;
  private static final int PER_THREAD = 800;
  private static final String ENQUEUES_OK =
      "antrean_rpc_duration_seconds_count{code=\"OK\",method=\"antrean.v1.JobService/Enqueue\"}";

  @RegisterExtension static final SharedPostgres POSTGRES = new SharedPostgres();
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private SharedPostgres.Database db;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
    db = POSTGRES.newDatabase();
  }

  @Test
  void everyEnqueueAcknowledgedThroughAKillNineOfTheStreamsCoordinatorIsStoredOnce()
      throws Exception {
    Cluster.Peer a = cluster.startPostgresPeer("coordinator-a", db);
    Cluster.Peer b = cluster.startPostgresPeer("coordinator-b", db);
    Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    AtomicInteger done = new AtomicInteger();
    ExecutorService producers = Executors.newFixedThreadPool(THREADS);
    try (GrpcAntreanClient client =
        GrpcAntreanClient.forTarget(a.target() + "," + b.target())
            .timeout(Duration.ofSeconds(20))
            .build()) {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        running.add(
            producers.submit(
                () -> {
                  for (int i = 0; i < PER_THREAD; i++) {
                    String key = thread + "-" + i;
                    long id = client.enqueue(request(key)).getJob().getId();
                    acknowledged.put(key, id);
                    done.incrementAndGet();
                  }
                  return null;
                }));
      }
      Awaitility.await("a quarter of the Enqueues acknowledged")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> done.get() >= THREADS * PER_THREAD / 4);
      Cluster.Peer streaming = receiving(a, b);
      streaming.process().kill9();
      System.out.printf(
          "killed %s, which held the Produce stream, with %d of %d Enqueues acknowledged%n",
          streaming == a ? "coordinator-a" : "coordinator-b", done.get(), THREADS * PER_THREAD);
      for (Future<?> producer : running) {
        producer.get(120, TimeUnit.SECONDS); // any Enqueue that failed throws here
      }
      Cluster.Peer survivor = streaming == a ? b : a;
      JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs(survivor);

      assertThat(acknowledged).hasSize(THREADS * PER_THREAD);
      assertThat(pending(jobs)).as("jobs stored, none twice").isEqualTo(THREADS * PER_THREAD);
      for (Map.Entry<String, Long> entry : acknowledged.entrySet()) {
        Job job = Jobs.get(jobs, entry.getValue());
        assertThat(job.getIdempotencyKey()).isEqualTo(entry.getKey());
        assertThat(job.getPayload().toStringUtf8()).isEqualTo(payload(entry.getKey()));
      }
    } finally {
      producers.shutdownNow();
    }
  }

  private static EnqueueRequest request(String key) {
    return Jobs.request("sleep", payload(key)).toBuilder()
        .setQueue(QUEUE)
        .setIdempotencyKey(key)
        .build();
  }

  private static String payload(String key) {
    return "{\"ms\":1,\"key\":\"" + key + "\"}";
  }

  /** The coordinator whose Enqueue count grows: the one the client's stream goes to. */
  private static Cluster.Peer receiving(Cluster.Peer a, Cluster.Peer b) throws Exception {
    double aBefore = enqueues(a);
    double bBefore = enqueues(b);
    Awaitility.await("Enqueues arriving")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> enqueues(a) > aBefore || enqueues(b) > bBefore);
    return enqueues(a) > aBefore ? a : b;
  }

  private static double enqueues(Cluster.Peer peer) throws Exception {
    return MetricsScrape.value("http://127.0.0.1:" + peer.httpPort(), ENQUEUES_OK);
  }

  private static long pending(JobServiceGrpc.JobServiceBlockingStub jobs) {
    return jobs
        .getStats(GetStatsRequest.newBuilder().setQueue(QUEUE).build())
        .getQueuesList()
        .stream()
        .mapToLong(QueueStats::getPending)
        .sum();
  }
}
