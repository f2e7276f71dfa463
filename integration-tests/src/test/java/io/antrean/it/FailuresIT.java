package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.Timestamps;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RetryPolicy;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Every failure has a defined path: retry with backoff, or the dead-letter queue and back. */
@Timeout(180)
class FailuresIT {
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
  }

  @Test
  void permanentErrorIsDeadLetteredAfterOneAttemptWithTheErrorInHistory() throws Exception {
    cluster.startCoordinator();
    cluster.startWorker("w1");
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    long id = Jobs.enqueue(jobs, "email.send", "{\"subject\":\"no recipient\"}");
    Job dead = Jobs.awaitState(jobs, id, JobState.JOB_STATE_FAILED, Duration.ofSeconds(30));
    assertThat(dead.getAttempts()).isEqualTo(1);
    Attempt only = dead.getHistory(0);
    assertThat(only.getOutcome()).isEqualTo(AttemptOutcome.ATTEMPT_OUTCOME_FAILED_PERMANENT);
    assertThat(only.getErrorKind()).isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
    assertThat(only.getErrorType()).endsWith("PermanentException");
    assertThat(only.getErrorMessage()).contains("to");
    assertThat(only.getStackTrace()).contains("at ");
  }

  @Test
  void retryableErrorUsesFourAttemptsWithBackoffThenIsDeadLetteredWithFourErrors()
      throws Exception {
    cluster.startCoordinator();
    cluster.startWorker("w1");
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    long initialMillis = 200;
    EnqueueRequest flaky =
        Jobs.request("flaky", "{\"failures\":10}").toBuilder()
            .setRetryPolicy(
                RetryPolicy.newBuilder()
                    .setMaxAttempts(4)
                    .setInitialBackoff(Durations.fromMillis(initialMillis))
                    .setBackoffMultiplier(3)
                    .setMaxBackoff(Durations.fromSeconds(10)))
            .build();
    long id = jobs.enqueue(flaky).getJob().getId();
    Job dead = Jobs.awaitState(jobs, id, JobState.JOB_STATE_FAILED, Duration.ofSeconds(60));

    assertThat(dead.getAttempts()).isEqualTo(4);
    assertThat(dead.getHistoryList())
        .extracting(Attempt::getOutcome)
        .containsOnly(AttemptOutcome.ATTEMPT_OUTCOME_FAILED_RETRYABLE)
        .hasSize(4);
    assertThat(dead.getHistoryList()).allSatisfy(a -> assertThat(a.getErrorMessage()).isNotEmpty());
    // Full jitter: the n-th delay lies in [0, initial * 3^(n-1)]; the bound grows each time.
    for (int n = 1; n < 4; n++) {
      long gapMillis =
          Timestamps.toMillis(dead.getHistory(n).getLeasedAt())
              - Timestamps.toMillis(dead.getHistory(n - 1).getEndedAt());
      long capMillis = initialMillis * (long) Math.pow(3, n - 1);
      System.out.printf("retry %d: waited %d ms (bound %d ms)%n", n, gapMillis, capMillis);
      assertThat(gapMillis).isBetween(0L, capMillis + 1000);
    }
  }

  @Test
  void deadLetteredJobIsRedrivenAndCompletesWithBothLivesInItsHistory() throws Exception {
    cluster.startCoordinator();
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    WorkerServiceGrpc.WorkerServiceBlockingStub worker =
        cluster.workerStub().withDeadlineAfter(30, TimeUnit.SECONDS);
    EnqueueRequest request =
        Jobs.request("report.build", "{\"pages\":1}").toBuilder()
            .setIdempotencyKey("rep-1")
            .build();
    long id = jobs.enqueue(request).getJob().getId();

    Job first = lease(worker, "w1");
    worker.fail(
        FailRequest.newBuilder()
            .setJobId(id)
            .setFencingToken(first.getLease().getFencingToken())
            .setLeaseId(first.getLease().getLeaseId())
            .setWorkerId("w1")
            .setKind(ErrorKind.ERROR_KIND_PERMANENT)
            .setErrorType("ReportTemplateMissing")
            .setErrorMessage("template v2 not deployed")
            .build());
    assertThat(Jobs.get(jobs, id).getState()).isEqualTo(JobState.JOB_STATE_FAILED);

    AdminServiceGrpc.AdminServiceBlockingStub admin =
        AdminServiceGrpc.newBlockingStub(cluster.channel()).withDeadlineAfter(30, TimeUnit.SECONDS);
    assertThat(
            admin
                .redriveDeadLetters(RedriveDeadLettersRequest.newBuilder().addIds(id).build())
                .getRedrivenIdsList())
        .containsExactly(id);

    Job second = lease(worker, "w2");
    assertThat(second.getAttempts()).as("a fresh attempt budget").isEqualTo(1);
    worker.complete(
        CompleteRequest.newBuilder()
            .setJobId(id)
            .setFencingToken(second.getLease().getFencingToken())
            .setLeaseId(second.getLease().getLeaseId())
            .setWorkerId("w2")
            .setResult(ByteString.copyFromUtf8("{\"pages\":1}"))
            .build());

    Job done = Jobs.get(jobs, id);
    assertThat(done.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(done.getIdempotencyKey()).isEqualTo("rep-1");
    assertThat(done.getHistoryList())
        .extracting(Attempt::getOutcome)
        .containsExactly(
            AttemptOutcome.ATTEMPT_OUTCOME_FAILED_PERMANENT,
            AttemptOutcome.ATTEMPT_OUTCOME_REDRIVEN,
            AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED);
    assertThat(done.getHistory(0).getErrorMessage()).isEqualTo("template v2 not deployed");
  }

  private static Job lease(WorkerServiceGrpc.WorkerServiceBlockingStub worker, String id) {
    List<Job> jobs =
        worker
            .lease(
                LeaseRequest.newBuilder()
                    .setWorkerId(id)
                    .setWait(Durations.fromSeconds(10))
                    .build())
            .getJobsList();
    assertThat(jobs).hasSize(1);
    return jobs.get(0);
  }

  @Test
  void jobThatKillsItsWorkerIsDeadLetteredAfterMaxLeaseExpiriesWhileOthersFlow() throws Exception {
    cluster.startCoordinator();
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    EnqueueRequest poison =
        Jobs.request("crash", "{\"mode\":\"halt\"}").toBuilder()
            .setRetryPolicy(RetryPolicy.newBuilder().setMaxLeaseExpiries(3))
            .build();
    long poisonId = jobs.enqueue(poison).getJob().getId();
    List<Long> others = Jobs.enqueueMany(jobs, 40, "sleep", "{\"ms\":50}");

    // An orchestrator's job: restart each worker process that dies, a bounded number of times.
    String[] names = {"w1", "w2"};
    JvmProcess[] workers = new JvmProcess[names.length];
    int restarts = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (Jobs.get(jobs, poisonId).getState() != JobState.JOB_STATE_FAILED) {
      assertThat(System.nanoTime()).as("poison job dead-lettered in time").isLessThan(deadline);
      for (int i = 0; i < names.length; i++) {
        if (workers[i] == null || !workers[i].isAlive()) {
          if (workers[i] != null) {
            assertThat(workers[i].awaitExit(Duration.ofSeconds(5))).isEqualTo(137);
            restarts++;
          }
          workers[i] =
              cluster.startWorker(
                  names[i] + "-" + restarts, "--lease-ttl", "1s", "--concurrency", "1");
        }
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    Job dead = Jobs.get(jobs, poisonId);
    assertThat(dead.getLeaseExpiries()).isEqualTo(3);
    assertThat(dead.getLastError()).contains("lease expired");
    assertThat(Jobs.count(dead, AttemptOutcome.ATTEMPT_OUTCOME_LEASE_EXPIRED)).isEqualTo(3);
    assertThat(restarts)
        .as("each lease of the poison job killed a worker")
        .isGreaterThanOrEqualTo(3);

    for (int i = 0; i < names.length; i++) {
      if (!workers[i].isAlive()) {
        workers[i] = cluster.startWorker(names[i] + "-last", "--concurrency", "4");
      }
    }
    for (long id : others) {
      Jobs.awaitState(jobs, id, JobState.JOB_STATE_SUCCEEDED, Duration.ofSeconds(60));
    }
  }

  @Test
  void deadLetterSpikeIsWarnedOnceAndCountedInStats() throws Exception {
    JvmProcess coordinator =
        cluster.startCoordinator("--dlq-alert-threshold", "5", "--dlq-alert-window", "5m");
    cluster.startWorker("w1", "--concurrency", "4");
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    List<Long> ids = Jobs.enqueueMany(jobs, 20, "email.send", "{\"subject\":\"nobody\"}");
    for (long id : ids) {
      Jobs.awaitState(jobs, id, JobState.JOB_STATE_FAILED, Duration.ofSeconds(60));
    }
    long warnings =
        coordinator.logText().lines().filter(l -> l.contains("dead-letter spike")).count();
    assertThat(warnings).isEqualTo(1);
    assertThat(coordinator.logText()).contains("email.send x");
    var stats =
        jobs.getStats(GetStatsRequest.newBuilder().setQueue("default").build()).getQueues(0);
    assertThat(stats.getFailed()).isEqualTo(20);
    assertThat(stats.getDeadLetteredRecently()).isEqualTo(20);
  }
}
