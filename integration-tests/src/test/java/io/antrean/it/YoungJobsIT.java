package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.QueueStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator with {@code --young-jobs}, killed with SIGKILL while a worker process leases and
 * completes its young jobs, and started again: every acknowledged job is there, every one ends
 * SUCCEEDED, and none has two accepted completions.
 */
@Timeout(180)
class YoungJobsIT {
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
  }

  @Test
  void killNineWhileYoungJobsRunLosesNoneAndCompletesNoneTwice() throws Exception {
    JvmProcess first = cluster.startCoordinator("--young-jobs");
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    List<Long> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      ids.add(Jobs.enqueue(jobs, "sleep", "{\"ms\":1}"));
    }
    ids.addAll(Jobs.enqueueMany(jobs, 900, "sleep", "{\"ms\":2}"));
    // Leases the crash leaves unanswered run out in 5 s, not the default 30.
    cluster.startWorker("worker", "--concurrency", "8", "--lease-ttl", "5s");
    Awaitility.await("some jobs completed, young")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> succeeded(jobs) >= 200);
    first.kill9();

    cluster.startCoordinator("--young-jobs");
    JobServiceGrpc.JobServiceBlockingStub after = cluster.jobs();
    Awaitility.await("all 1000 acknowledged jobs succeeded")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> succeeded(after) == 1000);
    JobServiceGrpc.JobServiceBlockingStub reads = cluster.jobs();
    for (long id : ids) {
      Job job = Jobs.get(reads, id);
      assertThat(job.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
      assertThat(Jobs.count(job, AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED))
          .as("accepted completions of job %d", id)
          .isEqualTo(1);
    }
  }

  private static long succeeded(JobServiceGrpc.JobServiceBlockingStub jobs) {
    return jobs
        .getStats(GetStatsRequest.newBuilder().setQueue("default").build())
        .getQueuesList()
        .stream()
        .mapToLong(QueueStats::getSucceeded)
        .sum();
  }
}
