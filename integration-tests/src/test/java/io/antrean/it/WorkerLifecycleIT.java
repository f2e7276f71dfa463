package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListJobsRequest;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Worker processes under real signals, cancellation and concurrent producers. */
@Timeout(150)
class WorkerLifecycleIT {
  /** 50 pages of 100 ms, with a progress note after each page. */
  private static final String FIVE_SECOND_REPORT = "{\"pages\":50,\"msPerPage\":100}";

  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
    cluster.startCoordinator();
  }

  @Test
  void sigtermWithLongGraceLetsTheRunningJobFinishAndExitsZero() throws Exception {
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    JvmProcess worker = cluster.startWorker("w1", "--shutdown-grace", "30s", "--lease-ttl", "3s");
    long id = Jobs.enqueue(jobs, "report.build", FIVE_SECOND_REPORT);
    Jobs.awaitProgress(jobs, id, Duration.ofSeconds(30));

    worker.terminate();
    assertThat(worker.awaitExit(Duration.ofSeconds(40))).isZero();
    Job done = Jobs.get(jobs, id);
    assertThat(done.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(done.getAttempts()).isEqualTo(1);
  }

  @Test
  void sigtermWithShortGraceReleasesTheJobWithoutSpendingAnAttempt() throws Exception {
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    JvmProcess first = cluster.startWorker("first", "--shutdown-grace", "1s", "--lease-ttl", "3s");
    long id = Jobs.enqueue(jobs, "report.build", FIVE_SECOND_REPORT);
    Jobs.awaitProgress(jobs, id, Duration.ofSeconds(30));

    first.terminate();
    assertThat(first.awaitExit(Duration.ofSeconds(20))).isZero();
    Job released = Jobs.get(jobs, id);
    assertThat(released.getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    assertThat(released.getAttempts()).as("attempts counts the lease taken").isEqualTo(1);

    cluster.startWorker("second");
    Job done = Jobs.awaitState(jobs, id, JobState.JOB_STATE_SUCCEEDED, Duration.ofSeconds(40));
    assertThat(done.getAttempts()).isEqualTo(2);
    assertThat(done.getHistoryList())
        .extracting(a -> a.getWorkerId() + ":" + a.getOutcome())
        .containsExactly(
            "first:" + AttemptOutcome.ATTEMPT_OUTCOME_RELEASED,
            "second:" + AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED);
  }

  @Test
  void cancellingARunningJobStopsItsHandlerWithinOneHeartbeatInterval() throws Exception {
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    // Lease TTL 3 s gives a heartbeat every second.
    cluster.startWorker("w1", "--lease-ttl", "3s");
    long id = Jobs.enqueue(jobs, "report.build", "{\"pages\":600,\"msPerPage\":100}");
    Jobs.awaitProgress(jobs, id, Duration.ofSeconds(30));

    long start = System.nanoTime();
    Job asked = jobs.cancelJob(CancelJobRequest.newBuilder().setId(id).build()).getJob();
    assertThat(asked.getCancelRequested()).isTrue();
    Job cancelled = Jobs.awaitState(jobs, id, JobState.JOB_STATE_CANCELLED, Duration.ofSeconds(10));
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.printf(
        "cancel of a running job took effect after %d ms (heartbeat 1000 ms)%n", millis);
    assertThat(millis).isLessThan(1000 + 500);
    Attempt last = cancelled.getHistory(cancelled.getHistoryCount() - 1);
    assertThat(last.getOutcome()).isEqualTo(AttemptOutcome.ATTEMPT_OUTCOME_CANCELLED);
  }

  @Test
  void cancellingAPendingJobCancelsItAtOnce() {
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    long id = Jobs.enqueue(jobs, "sleep", "{\"ms\":1}");
    Job job = jobs.cancelJob(CancelJobRequest.newBuilder().setId(id).build()).getJob();
    assertThat(job.getState()).isEqualTo(JobState.JOB_STATE_CANCELLED);
  }

  /**
   * A rolling restart under a trickle of Enqueues: each SIGTERM withdraws the worker's waiting
   * Lease, often at the moment a new job is leased for it. Those jobs go back at once ("lease call
   * gone") instead of waiting out their leases; before that, about four restarts in five left a job
   * to expire, and a job that meets max_lease_expiries is dead-lettered without ever running. A
   * stranded job completes only after its lease expired, so it counts in the metric by the end.
   */
  @Test
  void restartsUnderATrickleOfEnqueuesLeaveNoLeaseToExpire() throws Exception {
    int restarts = 10;
    JobServiceGrpc.JobServiceBlockingStub jobs = JobServiceGrpc.newBlockingStub(cluster.channel());
    ExecutorService producer = Executors.newSingleThreadExecutor();
    java.util.concurrent.atomic.AtomicBoolean producing =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    Future<Integer> enqueued =
        producer.submit(
            () -> {
              int n = 0;
              while (producing.get()) {
                jobs.withDeadlineAfter(30, TimeUnit.SECONDS)
                    .enqueue(Jobs.request("bench.noop", "{}"));
                n++;
                if (n % 100 == 0) {
                  // A short backlog: jobs keep arriving while the workers wait for them.
                  int sent = n;
                  Awaitility.await("the workers keep up")
                      .atMost(Duration.ofSeconds(60))
                      .pollInterval(Duration.ofMillis(20))
                      .until(() -> !producing.get() || sent - completed() < 300);
                }
              }
              return n;
            });
    try {
      for (int i = 0; i < restarts; i++) {
        double before = completed();
        JvmProcess worker =
            cluster.startWorker("w" + i, "--types", "bench.noop", "--lease-ttl", "10s");
        Awaitility.await("worker w" + i + " runs jobs")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> completed() >= before + 50);
        worker.terminate();
        assertThat(worker.awaitExit(Duration.ofSeconds(30))).isZero();
      }
    } finally {
      producing.set(false);
    }
    int total = enqueued.get(60, TimeUnit.SECONDS);
    producer.shutdown();
    cluster.startWorker("last", "--types", "bench.noop", "--lease-ttl", "10s");
    Awaitility.await("all " + total + " jobs succeeded")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> completed() >= total);

    assertThat(completed()).isEqualTo(total);
    assertThat(
            MetricsScrape.value(cluster.httpBase(), "antrean_leases_expired_total{path=\"timer\"}"))
        .isZero();
    assertThat(
            MetricsScrape.value(cluster.httpBase(), "antrean_leases_expired_total{path=\"sweep\"}"))
        .isZero();
  }

  private double completed() throws Exception {
    return MetricsScrape.value(
        cluster.httpBase(), "antrean_jobs_completed_total{queue=\"default\"}");
  }

  @Test
  void tenConcurrentClientsWithOneIdempotencyKeyCreateExactlyOneJob() throws Exception {
    int clients = 10;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Long>> ids = new ArrayList<>();
    EnqueueRequest keyed =
        Jobs.request("email.send", "{\"to\":\"a@example.com\"}").toBuilder()
            .setIdempotencyKey("signup-42")
            .build();
    try {
      for (int i = 0; i < clients; i++) {
        ManagedChannel own = cluster.channel();
        JobServiceGrpc.JobServiceBlockingStub stub =
            JobServiceGrpc.newBlockingStub(own).withDeadlineAfter(30, TimeUnit.SECONDS);
        ids.add(
            pool.submit(
                () -> {
                  start.await();
                  return stub.enqueue(keyed).getJob().getId();
                }));
      }
      start.countDown();
      Set<Long> distinct = new HashSet<>();
      for (Future<Long> f : ids) {
        distinct.add(f.get(30, TimeUnit.SECONDS));
      }
      assertThat(distinct).hasSize(1);
      assertThat(cluster.jobs().listJobs(ListJobsRequest.getDefaultInstance()).getJobsList())
          .hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }
}
