package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.Durations;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Many coordinator processes on one PostgreSQL. */
@Timeout(300)
class PostgresClusterIT {
  @RegisterExtension static final SharedPostgres POSTGRES = new SharedPostgres();
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private SharedPostgres.Database db;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
    db = POSTGRES.newDatabase();
  }

  private Cluster.Peer coordinator(String name, String... extra) throws Exception {
    return cluster.startPostgresPeer(name, db, extra);
  }

  @Test
  void threeCoordinatorsAndFourWorkersRunFiveThousandJobsThroughAKillNine() throws Exception {
    Cluster.Peer a = coordinator("coordinator-a");
    Cluster.Peer b = coordinator("coordinator-b");
    Cluster.Peer c = coordinator("coordinator-c");
    String all = a.target() + "," + b.target() + "," + c.target();
    for (int i = 1; i <= 4; i++) {
      cluster.startWorkerOn(all, "worker-" + i, "--concurrency", "16", "--lease-ttl", "5s");
    }
    List<Long> ids = new ArrayList<>();
    ids.addAll(Jobs.enqueueMany(cluster.jobs(a), 2000, "sleep", "{\"ms\":2}"));
    ids.addAll(Jobs.enqueueMany(cluster.jobs(b), 1500, "sleep", "{\"ms\":2}"));
    ids.addAll(Jobs.enqueueMany(cluster.jobs(c), 1500, "sleep", "{\"ms\":2}"));
    assertThat(ids).hasSize(5000).doesNotHaveDuplicates();

    JobServiceGrpc.JobServiceBlockingStub watch = cluster.jobs(a);
    Awaitility.await("a third of the jobs done")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> Jobs.succeeded(watch) >= 1500);
    b.process().kill9();
    System.out.printf("killed coordinator-b with %d of 5000 jobs done%n", Jobs.succeeded(watch));

    Awaitility.await("all 5000 jobs succeeded")
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> Jobs.succeeded(watch) == 5000);
    Jobs.assertEachSucceededOnce(watch, ids);
  }

  @Test
  void enqueueOnOneCoordinatorWakesALongPollOnAnotherBeforeTheBackupPoll() throws Exception {
    Duration backup = Duration.ofSeconds(30);
    Cluster.Peer a = coordinator("coordinator-a", "--sweep-interval", "30s");
    Cluster.Peer b = coordinator("coordinator-b", "--sweep-interval", "30s");
    WorkerServiceGrpc.WorkerServiceBlockingStub onB =
        WorkerServiceGrpc.newBlockingStub(cluster.peerChannel(b))
            .withDeadlineAfter(60, TimeUnit.SECONDS);
    JobServiceGrpc.JobServiceBlockingStub onA = cluster.jobs(a);
    Jobs.enqueue(onA, "warm-up", "{}");
    onB.lease(
        LeaseRequest.newBuilder().setWorkerId("warm").setWait(Durations.fromSeconds(5)).build());

    CompletableFuture<LeaseResponse> waiting =
        CompletableFuture.supplyAsync(
            () ->
                onB.lease(
                    LeaseRequest.newBuilder()
                        .setWorkerId("waiter")
                        .setWait(Durations.fromSeconds(20))
                        .build()));
    // The call must be waiting on coordinator B before the job exists.
    TimeUnit.MILLISECONDS.sleep(500);
    assertThat(waiting).isNotCompleted();
    long start = System.nanoTime();
    long id = Jobs.enqueue(onA, "email.send", "{\"to\":\"a@example.com\"}");
    LeaseResponse response = waiting.get(25, TimeUnit.SECONDS);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.printf(
        "cross-coordinator wake-up: %d ms (backup poll every %d s)%n", millis, backup.toSeconds());
    assertThat(response.getJobsList()).extracting(Job::getId).containsExactly(id);
    assertThat(millis).isLessThan(backup.toMillis() / 6);
  }

  @Test
  void twoCoordinatorsSweepingTheSameExpiredLeasesTakeEachJobBackOnce() throws Exception {
    Cluster.Peer a = coordinator("coordinator-a", "--sweep-interval", "100ms");
    coordinator("coordinator-b", "--sweep-interval", "100ms");
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs(a);
    List<Long> ids = Jobs.enqueueMany(jobs, 200, "sleep", "{\"ms\":1}");
    WorkerServiceGrpc.WorkerServiceBlockingStub worker =
        WorkerServiceGrpc.newBlockingStub(cluster.peerChannel(a))
            .withDeadlineAfter(60, TimeUnit.SECONDS);
    int leased = 0;
    while (leased < 200) {
      leased +=
          worker
              .lease(
                  LeaseRequest.newBuilder()
                      .setWorkerId("vanishing")
                      .setMaxJobs(200)
                      .setLeaseTtl(Durations.fromSeconds(1))
                      .setWait(Durations.fromSeconds(1))
                      .build())
              .getJobsCount();
    }
    // Nobody heartbeats: both coordinators' sweeps (and A's timers) race to take them back.
    Awaitility.await("all 200 leases taken back")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                jobs.getStats(GetStatsRequest.newBuilder().setQueue("default").build())
                        .getQueues(0)
                        .getPending()
                    == 200);
    for (long id : ids) {
      Job job = Jobs.get(jobs, id);
      assertThat(job.getLeaseExpiries()).as("expiries of job %d", id).isEqualTo(1);
      assertThat(Jobs.count(job, AttemptOutcome.ATTEMPT_OUTCOME_LEASE_EXPIRED)).isEqualTo(1);
    }
  }
}
