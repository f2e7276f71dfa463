package io.antrean.it;

import io.antrean.proto.v1.JobServiceGrpc;
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
        .until(() -> Jobs.succeeded(jobs) >= 200);
    first.kill9();

    cluster.startCoordinator("--young-jobs");
    JobServiceGrpc.JobServiceBlockingStub after = cluster.jobs();
    Awaitility.await("all 1000 acknowledged jobs succeeded")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> Jobs.succeeded(after) == 1000);
    Jobs.assertEachSucceededOnce(cluster.jobs(), ids); // a fresh stub: its own 30 s
  }
}
