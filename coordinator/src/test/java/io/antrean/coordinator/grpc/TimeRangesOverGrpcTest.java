package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.FailResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListWorkersRequest;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RetryPolicy;
import io.antrean.proto.v1.WorkerInfo;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue F2 defects 1 to 3 over gRPC: every out-of-range time or duration is INVALID_ARGUMENT naming
 * its field (never INTERNAL, never stored), and an accepted retry policy never breaks a later Fail.
 */
@Timeout(30)
class TimeRangesOverGrpcTest {
  private static final long YEAR_SECONDS = 366L * 24 * 3600;

  @TempDir Path dir;
  private InProcessCoordinator server;
  private JobServiceGrpc.JobServiceBlockingStub jobs;
  private WorkerServiceGrpc.WorkerServiceBlockingStub workers;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.DIRECT, "x");
    jobs = server.jobs();
    workers = server.workers();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static EnqueueRequest.Builder job() {
    return EnqueueRequest.newBuilder().setType("x").setPayload(ByteString.copyFromUtf8("{}"));
  }

  private static Timestamp at(long seconds) {
    return Timestamp.newBuilder().setSeconds(seconds).build();
  }

  private static Duration seconds(long s) {
    return Duration.newBuilder().setSeconds(s).build();
  }

  private static long now() {
    return System.currentTimeMillis() / 1000;
  }

  @Test
  void outOfRangeEnqueueTimesAreInvalidArgumentNamingTheFieldAndStoreNothing() {
    List<UnaryOperator<EnqueueRequest.Builder>> bad =
        List.of(
            b -> b.setRunAt(at(10_000_000_000_000L)),
            b -> b.setRunAt(at(Long.MAX_VALUE)),
            b -> b.setRunAt(at(Long.MIN_VALUE)),
            b -> b.setRunAt(Timestamp.newBuilder().setSeconds(now()).setNanos(-1)),
            b -> b.setRunAt(at(-62_135_596_800L)), // 0001-01-01
            b -> b.setRunAt(at(now() + 11 * YEAR_SECONDS)),
            b -> b.setRunAt(at(now() - 30 * 24 * 3600)));
    for (UnaryOperator<EnqueueRequest.Builder> change : bad) {
      EnqueueRequest request = change.apply(job()).build();
      assertThat(ViolatedFields.of(() -> jobs.enqueue(request)))
          .as("%s", request.getRunAt())
          .containsExactly("run_at");
    }
    assertThat(
            ViolatedFields.of(() -> jobs.enqueue(job().setDelay(seconds(Long.MAX_VALUE)).build())))
        .containsExactly("delay");
    assertThat(
            ViolatedFields.of(
                () -> jobs.enqueue(job().setDelay(seconds(315_576_000_000L)).build())))
        .containsExactly("delay");
    assertThat(
            ViolatedFields.of(
                () ->
                    jobs.enqueue(
                        job().setDelay(Duration.newBuilder().setNanos(2_000_000_000)).build())))
        .containsExactly("delay");
    assertThat(jobs.listJobs(ListJobsRequest.getDefaultInstance()).getJobsList()).isEmpty();
  }

  @Test
  void outOfRangeRetryPolicyIsInvalidArgumentNamingEachField() {
    RetryPolicy policy =
        RetryPolicy.newBuilder()
            .setInitialBackoff(seconds(10_000_000_000L))
            .setMaxBackoff(seconds(10_000_000_000L))
            .setBackoffMultiplier(1e308)
            .build();
    assertThat(ViolatedFields.of(() -> jobs.enqueue(job().setRetryPolicy(policy).build())))
        .containsExactlyInAnyOrder(
            "retry_policy.initial_backoff",
            "retry_policy.max_backoff",
            "retry_policy.backoff_multiplier");
    RetryPolicy overflowing =
        RetryPolicy.newBuilder().setMaxBackoff(seconds(Long.MAX_VALUE)).build();
    assertThat(ViolatedFields.of(() -> jobs.enqueue(job().setRetryPolicy(overflowing).build())))
        .containsExactly("retry_policy.max_backoff");
    EnqueueBatchRequest batch =
        EnqueueBatchRequest.newBuilder()
            .addJobs(job())
            .addJobs(job().setRunAt(at(Long.MAX_VALUE)))
            .build();
    assertThat(ViolatedFields.of(() -> jobs.enqueueBatch(batch))).containsExactly("jobs[1].run_at");
    assertThat(jobs.listJobs(ListJobsRequest.getDefaultInstance()).getJobsList()).isEmpty();
  }

  @Test
  void outOfRangeDeadLetterFilterTimesAreInvalidArgument() {
    DeadLetterFilter after =
        DeadLetterFilter.newBuilder().setFailedAfter(at(10_000_000_000_000L)).build();
    DeadLetterFilter before =
        DeadLetterFilter.newBuilder().setFailedBefore(at(-10_000_000_000_000L)).build();
    assertThat(
            ViolatedFields.of(
                () ->
                    server
                        .admin()
                        .listDeadLetters(
                            ListDeadLettersRequest.newBuilder().setFilter(after).build())))
        .containsExactly("filter.failed_after");
    assertThat(
            ViolatedFields.of(
                () ->
                    server
                        .admin()
                        .purgeDeadLetters(
                            PurgeDeadLettersRequest.newBuilder().setFilter(before).build())))
        .containsExactly("filter.failed_before");
    assertThat(
            ViolatedFields.of(
                () ->
                    server
                        .admin()
                        .redriveDeadLetters(
                            RedriveDeadLettersRequest.newBuilder().setFilter(after).build())))
        .containsExactly("filter.failed_after");
  }

  @Test
  void outOfRangeRetryAfterIsInvalidArgumentAndTheJobStaysLeased() {
    jobs.enqueue(job().build());
    Job leased = lease();
    FailRequest fail =
        FailRequest.newBuilder()
            .setJobId(leased.getId())
            .setFencingToken(leased.getLease().getFencingToken())
            .setLeaseId(leased.getLease().getLeaseId())
            .setWorkerId("w")
            .setRetryAfter(seconds(Long.MAX_VALUE))
            .build();
    assertThat(ViolatedFields.of(() -> workers.fail(fail))).containsExactly("retry_after");
    assertThat(
            ViolatedFields.of(
                () ->
                    workers.lease(
                        LeaseRequest.newBuilder()
                            .setWorkerId("w")
                            .setLeaseTtl(seconds(Long.MIN_VALUE))
                            .build())))
        .containsExactly("lease_ttl");
    FailResponse ok = workers.fail(fail.toBuilder().setRetryAfter(seconds(60)).build());
    assertThat(ok.getState()).isEqualTo(JobState.JOB_STATE_PENDING);
  }

  @Test
  void theLargestAcceptedRetryPolicyStillRetriesAndRespectsMaxAttempts() {
    RetryPolicy largest =
        RetryPolicy.newBuilder()
            .setMaxAttempts(2)
            .setInitialBackoff(seconds(365L * 24 * 3600))
            .setMaxBackoff(seconds(365L * 24 * 3600))
            .setBackoffMultiplier(100)
            .build();
    long id = jobs.enqueue(job().setRetryPolicy(largest).build()).getJob().getId();
    Job leased = lease();
    FailResponse first =
        workers.fail(
            FailRequest.newBuilder()
                .setJobId(id)
                .setFencingToken(leased.getLease().getFencingToken())
                .setLeaseId(leased.getLease().getLeaseId())
                .setWorkerId("w")
                .setKind(ErrorKind.ERROR_KIND_RETRYABLE)
                .setErrorMessage("handler said no")
                .build());
    assertThat(first.getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    assertThat(first.getNextRunAt().getSeconds()).isLessThanOrEqualTo(now() + YEAR_SECONDS);
    Job stored = jobs.getJob(GetJobRequest.newBuilder().setId(id).build()).getJob();
    assertThat(stored.getLastError()).isEqualTo("handler said no");
    assertThat(stored.getRetryPolicy().getBackoffMultiplier()).isEqualTo(100);
  }

  @Test
  void aWorkerDescriptionWithABadIntervalIsInvalidArgumentAndANegativeOneStillPrints() {
    LeaseRequest bad =
        LeaseRequest.newBuilder()
            .setWorkerId("w")
            .setWait(seconds(0))
            .setWorker(
                WorkerInfo.newBuilder()
                    .setHeartbeatInterval(
                        Duration.newBuilder().setSeconds(-1).setNanos(999_999_999)))
            .build();
    assertThat(ViolatedFields.of(() -> workers.lease(bad)))
        .containsExactly("worker.heartbeat_interval");
    workers.lease(
        bad.toBuilder()
            .setWorker(
                WorkerInfo.newBuilder()
                    .setHeartbeatInterval(Duration.newBuilder().setSeconds(0).setNanos(-1)))
            .build());
    assertThat(
            server
                .admin()
                .listWorkers(ListWorkersRequest.getDefaultInstance())
                .getWorkers(0)
                .getInfo()
                .getHeartbeatInterval()
                .getNanos())
        .isEqualTo(-1);
  }

  @Test
  void anOverlongWorkerIdIsInvalidArgumentOnEveryWorkerCall() {
    String id = "w".repeat(257);
    assertThat(
            ViolatedFields.of(
                () ->
                    workers.lease(
                        LeaseRequest.newBuilder().setWorkerId(id).setWait(seconds(0)).build())))
        .containsExactly("worker_id");
    assertThat(
            ViolatedFields.of(
                () -> workers.fail(FailRequest.newBuilder().setJobId(1).setWorkerId(id).build())))
        .containsExactly("worker_id");
    assertThat(server.admin().listWorkers(ListWorkersRequest.getDefaultInstance()).getWorkersList())
        .isEmpty();
  }

  private Job lease() {
    return workers
        .lease(LeaseRequest.newBuilder().setWorkerId("w").setWait(seconds(0)).build())
        .getJobs(0);
  }
}
