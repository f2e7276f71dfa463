package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cancel reaches a real worker process in about a round trip with the default lease TTL (30 s, so
 * a heartbeat every 10 s), without more heartbeats: the worker's held heartbeat is woken.
 */
@Timeout(120)
class CancelReachesWorkerIT {
  private static final String HEARTBEATS_OK =
      "antrean_rpc_duration_seconds_count{code=\"OK\",method=\"antrean.v1.WorkerService/Heartbeat\"}";

  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
    cluster.startCoordinator();
  }

  @Test
  void aCancelledRunningJobStopsWithinSecondsNotAHeartbeatIntervalLater() throws Exception {
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    cluster.startWorker("w1");
    long id = Jobs.enqueue(jobs, "report.build", "{\"pages\":600,\"msPerPage\":100}");
    // A progress note arrives with the worker's first heartbeat, one interval (10 s) after start:
    // from then on one heartbeat of the worker is held at the coordinator.
    Jobs.awaitProgress(jobs, id, Duration.ofSeconds(60));
    double beatsBefore = heartbeats();

    jobs.cancelJob(CancelJobRequest.newBuilder().setId(id).build());

    // Well within the 10 s heartbeat interval: the held heartbeat was woken.
    Job cancelled = Jobs.awaitState(jobs, id, JobState.JOB_STATE_CANCELLED, Duration.ofSeconds(5));
    assertThat(cancelled.getAttempts()).isEqualTo(1);
    assertThat(heartbeats() - beatsBefore)
        .as("heartbeats for the cancel: the woken one and the one that learnt which job")
        .isLessThanOrEqualTo(2);
  }

  private double heartbeats() throws Exception {
    return MetricsScrape.value(cluster.httpBase(), HEARTBEATS_OK);
  }
}
