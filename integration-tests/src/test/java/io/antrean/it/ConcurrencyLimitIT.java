package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.Timestamps;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.SetQueueLimitsRequest;
import io.antrean.proto.v1.SetQueueLimitsResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A per-key concurrency limit held by three coordinator processes on one PostgreSQL, with four
 * worker processes pulling from all three: checked afterwards from the jobs' attempt histories.
 */
@Timeout(300)
class ConcurrencyLimitIT {
  private static final int JOBS = 500;
  private static final int KEYS = 10;
  private static final int HANDLER_MILLIS = 500;

  /**
   * How far one attempt's recorded start may precede the recorded end of the attempt before it.
   * Each time is read by a coordinator just before its statement, so a lease whose statement ran
   * right after the previous job's completion committed can record a start up to its own statement
   * latency earlier than that completion's recorded end: a limited lease never waits for the
   * queue's lock, but between its clock read and its count it still borrows a connection and makes
   * a few round trips, which took up to 83 ms on the shared 2-core machine (load average above 20).
   * A broken limit shows as overlaps of about a whole handler run (500 ms here).
   */
  private static final Duration CLOCK_READ_SLACK = Duration.ofMillis(150);

  @RegisterExtension static final SharedPostgres POSTGRES = new SharedPostgres();
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private SharedPostgres.Database db;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
    db = POSTGRES.newDatabase();
  }

  private Cluster.Peer coordinator(String name) throws Exception {
    return cluster.startPostgresPeer(name, db);
  }

  @Test
  void perKeyLimitOfOneHoldsAcrossThreeCoordinatorsAndFourWorkers() throws Exception {
    Cluster.Peer a = coordinator("coordinator-a");
    Cluster.Peer b = coordinator("coordinator-b");
    Cluster.Peer c = coordinator("coordinator-c");
    SetQueueLimitsResponse limited =
        AdminServiceGrpc.newBlockingStub(cluster.peerChannel(b))
            .withDeadlineAfter(30, TimeUnit.SECONDS)
            .setQueueLimits(
                SetQueueLimitsRequest.newBuilder()
                    .setQueue("default")
                    .setMaxRunningPerKey(1)
                    .build());
    assertThat(limited.getQueue().getLimits().getMaxRunningPerKey()).isEqualTo(1);
    String all = a.target() + "," + b.target() + "," + c.target();
    for (int i = 1; i <= 4; i++) {
      cluster.startWorkerOn(all, "worker-" + i, "--concurrency", "16");
    }

    List<Long> ids = new ArrayList<>();
    List<Cluster.Peer> peers = List.of(a, b, c);
    for (int start = 0; start < JOBS; start += 100) {
      EnqueueBatchRequest.Builder batch = EnqueueBatchRequest.newBuilder();
      for (int i = start; i < start + 100; i++) {
        batch.addJobs(
            EnqueueRequest.newBuilder(Jobs.request("sleep", "{\"ms\":" + HANDLER_MILLIS + "}"))
                .setConcurrencyKey("customer-" + (i % KEYS)));
      }
      cluster
          .jobs(peers.get(start / 100 % 3))
          .enqueueBatch(batch.build())
          .getResultsList()
          .forEach(r -> ids.add(r.getJob().getId()));
    }
    assertThat(ids).hasSize(JOBS).doesNotHaveDuplicates();

    long started = System.nanoTime();
    Awaitility.await("all " + JOBS + " jobs succeeded")
        .atMost(Duration.ofSeconds(200))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> Jobs.succeeded(cluster.jobs(a)) == JOBS);
    System.out.printf(
        "%d jobs of %d keys (limit 1 per key) done in %d ms%n",
        JOBS, KEYS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

    Map<String, List<Attempt>> attemptsByKey = new HashMap<>();
    JobServiceGrpc.JobServiceBlockingStub read = cluster.jobs(a);
    for (long id : ids) {
      Job job = Jobs.get(read, id);
      assertThat(job.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
      assertThat(Jobs.count(job, AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED)).isEqualTo(1);
      for (Attempt attempt : job.getHistoryList()) {
        if (attempt.hasLeasedAt() && attempt.hasEndedAt()) {
          attemptsByKey
              .computeIfAbsent(job.getConcurrencyKey(), k -> new ArrayList<>())
              .add(attempt);
        }
      }
    }
    assertThat(attemptsByKey).hasSize(KEYS);
    long worstOverlapMicros = Long.MIN_VALUE;
    for (Map.Entry<String, List<Attempt>> e : attemptsByKey.entrySet()) {
      List<Attempt> attempts = new ArrayList<>(e.getValue());
      attempts.sort(Comparator.comparing(x -> Timestamps.toMicros(x.getLeasedAt())));
      for (int i = 1; i < attempts.size(); i++) {
        long previousEnd = Timestamps.toMicros(attempts.get(i - 1).getEndedAt());
        long nextStart = Timestamps.toMicros(attempts.get(i).getLeasedAt());
        long overlap = previousEnd - nextStart;
        worstOverlapMicros = Math.max(worstOverlapMicros, overlap);
        assertThat(overlap)
            .as(
                "key %s: attempt %s starts before %s ended",
                e.getKey(), attempts.get(i), attempts.get(i - 1))
            .isLessThanOrEqualTo(CLOCK_READ_SLACK.toNanos() / 1000);
      }
    }
    System.out.printf(
        "largest overlap of two attempts of one key: %d us (negative: a gap)%n",
        worstOverlapMicros);
  }
}
