package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
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

/** One job in, one job out, across real processes, with nothing lost when a process dies. */
@Timeout(180)
class SpineIT {
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
  }

  @Test
  void thousandJobsThroughTwoWorkerProcessesEachSucceedWithOneAcceptedCompletion()
      throws Exception {
    cluster.startCoordinator();
    cluster.startWorker("worker-a", "--concurrency", "8");
    cluster.startWorker("worker-b", "--concurrency", "8");
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    List<Long> ids = Jobs.enqueueMany(jobs, 1000, "sleep", "{\"ms\":1}");
    assertThat(ids).hasSize(1000).doesNotHaveDuplicates();

    Awaitility.await("all 1000 jobs succeeded")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> Jobs.succeeded(jobs) == 1000);

    int byA = 0;
    int byB = 0;
    for (long id : ids) {
      Job job = Jobs.get(jobs, id);
      assertThat(job.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
      assertThat(Jobs.count(job, AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED))
          .as("accepted completions of job %d", id)
          .isEqualTo(1);
      String worker =
          job.getHistoryList().stream()
              .filter(a -> a.getOutcome() == AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED)
              .findFirst()
              .orElseThrow()
              .getWorkerId();
      if (worker.equals("worker-a")) {
        byA++;
      } else if (worker.equals("worker-b")) {
        byB++;
      }
    }
    System.out.printf("1000 jobs: %d completed by worker-a, %d by worker-b%n", byA, byB);
    assertThat(byA + byB).isEqualTo(1000);
    assertThat(byA).as("both workers took part").isPositive();
    assertThat(byB).as("both workers took part").isPositive();
  }

  @Test
  void killedWorkersJobIsCompletedByAnotherWorkerAfterTheLeaseExpires() throws Exception {
    cluster.startCoordinator();
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    JvmProcess doomed = cluster.startWorker("doomed", "--lease-ttl", "2s");
    long id = Jobs.enqueue(jobs, "sleep", "{\"ms\":1500}");
    Job running = Jobs.awaitState(jobs, id, JobState.JOB_STATE_RUNNING, Duration.ofSeconds(30));
    assertThat(running.getLease().getWorkerId()).isEqualTo("doomed");

    doomed.kill9();
    // A survivor's own lease expiring on a busy machine would add to the history below.
    cluster.startWorker("survivor", "--lease-ttl", "30s");

    Job done = Jobs.awaitState(jobs, id, JobState.JOB_STATE_SUCCEEDED, Duration.ofSeconds(60));
    assertThat(done.getHistoryList())
        .extracting(a -> a.getWorkerId() + ":" + a.getOutcome())
        .containsExactly(
            "doomed:ATTEMPT_OUTCOME_LEASE_EXPIRED", "survivor:ATTEMPT_OUTCOME_SUCCEEDED");
    assertThat(done.getAttempts()).isEqualTo(2);
    assertThat(done.getLeaseExpiries()).isEqualTo(1);
  }

  @Test
  void acknowledgedJobsSurviveKillNineOfTheCoordinatorAndAllComplete() throws Exception {
    JvmProcess first = cluster.startCoordinator();
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    List<Long> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ids.add(Jobs.enqueue(jobs, "sleep", "{\"ms\":1}"));
    }
    ids.addAll(Jobs.enqueueMany(jobs, 300, "sleep", "{\"ms\":1}"));
    first.kill9();

    cluster.startCoordinator();
    JobServiceGrpc.JobServiceBlockingStub after = cluster.jobs();
    for (long id : ids) {
      assertThat(Jobs.get(after, id).getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    }
    cluster.startWorker("worker", "--concurrency", "8");
    Awaitility.await("all 500 acknowledged jobs succeeded")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> Jobs.succeeded(after) == 500);
  }

  @Test
  void leaseHeldAtACoordinatorCrashExpiresAndIsTakenOver() throws Exception {
    JvmProcess first = cluster.startCoordinator();
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    JvmProcess worker = cluster.startWorker("w1", "--lease-ttl", "2s");
    long id = Jobs.enqueue(jobs, "sleep", "{\"ms\":30000}");
    Jobs.awaitState(jobs, id, JobState.JOB_STATE_RUNNING, Duration.ofSeconds(30));
    worker.kill9();
    first.kill9();

    cluster.startCoordinator();
    JobServiceGrpc.JobServiceBlockingStub after = cluster.jobs();
    Job pending = Jobs.awaitState(after, id, JobState.JOB_STATE_PENDING, Duration.ofSeconds(30));
    assertThat(Jobs.count(pending, AttemptOutcome.ATTEMPT_OUTCOME_LEASE_EXPIRED)).isEqualTo(1);
  }
}
