package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.rpc.ErrorInfo;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The lease protocol against a coordinator process, with the test playing the workers. */
@Timeout(120)
class LeaseProtocolIT {
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
    cluster.startCoordinator();
  }

  private static LeaseRequest lease(String worker, long ttlMillis, long waitSeconds) {
    return LeaseRequest.newBuilder()
        .setWorkerId(worker)
        .setMaxJobs(1)
        .setLeaseTtl(
            Duration.newBuilder()
                .setSeconds(ttlMillis / 1000)
                .setNanos((int) (ttlMillis % 1000) * 1_000_000)
                .build())
        .setWait(Duration.newBuilder().setSeconds(waitSeconds).build())
        .build();
  }

  @Test
  void staleWorkerCompletingAfterTakeoverGetsLeaseLostAndTheNewResultStands() throws Exception {
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    WorkerServiceGrpc.WorkerServiceBlockingStub worker =
        cluster.workerStub().withDeadlineAfter(60, TimeUnit.SECONDS);
    long id = Jobs.enqueue(jobs, "report.build", "{}");

    Job staleCopy = worker.lease(lease("stale", 500, 0)).getJobs(0);
    assertThat(staleCopy.getId()).isEqualTo(id);
    // The stale worker stops heartbeating; its lease expires and the job is pending again.
    Jobs.awaitState(jobs, id, JobState.JOB_STATE_PENDING, java.time.Duration.ofSeconds(10));
    Job fresh = worker.lease(lease("fresh", 30_000, 5)).getJobs(0);
    assertThat(fresh.getLease().getFencingToken())
        .isNotEqualTo(staleCopy.getLease().getFencingToken());

    assertThatThrownBy(() -> worker.complete(complete(staleCopy, "stale")))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
              assertThat(reason(e)).isEqualTo("LEASE_LOST");
            });
    worker.complete(complete(fresh, "fresh"));

    Job done = Jobs.get(jobs, id);
    assertThat(done.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(done.getResult().toStringUtf8()).isEqualTo("{\"by\":\"fresh\"}");
    assertThat(done.getHistoryList())
        .extracting(a -> a.getWorkerId() + ":" + a.getOutcome())
        .containsExactly(
            "stale:" + AttemptOutcome.ATTEMPT_OUTCOME_LEASE_EXPIRED,
            "fresh:" + AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED,
            "stale:" + AttemptOutcome.ATTEMPT_OUTCOME_STALE_COMPLETION_REJECTED);
  }

  private static CompleteRequest complete(Job job, String by) {
    return CompleteRequest.newBuilder()
        .setJobId(job.getId())
        .setFencingToken(job.getLease().getFencingToken())
        .setLeaseId(job.getLease().getLeaseId())
        .setWorkerId(job.getLease().getWorkerId())
        .setResult(ByteString.copyFrom("{\"by\":\"" + by + "\"}", StandardCharsets.UTF_8))
        .build();
  }

  private static String reason(StatusRuntimeException e) {
    com.google.rpc.Status status = StatusProto.fromThrowable(e);
    for (com.google.protobuf.Any any : status.getDetailsList()) {
      if (any.is(ErrorInfo.class)) {
        try {
          return any.unpack(ErrorInfo.class).getReason();
        } catch (com.google.protobuf.InvalidProtocolBufferException ex) {
          throw new AssertionError(ex);
        }
      }
    }
    return "";
  }

  @Test
  void waitingLeaseReturnsTheJobEnqueuedMeanwhileLongBeforeItsTimeout() throws Exception {
    WorkerServiceGrpc.WorkerServiceBlockingStub worker =
        cluster.workerStub().withDeadlineAfter(60, TimeUnit.SECONDS);
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    // Warm both paths so the measurement is of the wake-up, not of class loading.
    Jobs.enqueue(jobs, "warm-up", "{}");
    worker.lease(lease("warm", 30_000, 1));

    long waitSeconds = 20;
    CompletableFuture<LeaseResponse> waiting =
        CompletableFuture.supplyAsync(() -> worker.lease(lease("waiter", 30_000, waitSeconds)));
    // The call must be waiting on the coordinator before the job exists, or this would measure
    // the immediate path: give it half a second to get there, then check it is still waiting.
    TimeUnit.MILLISECONDS.sleep(500);
    assertThat(waiting).as("nothing to lease yet, so the call waits").isNotCompleted();

    long start = System.nanoTime();
    long id = Jobs.enqueue(jobs, "email.send", "{\"to\":\"a@example.com\"}");
    LeaseResponse response = waiting.get(waitSeconds, TimeUnit.SECONDS);
    long delayMicros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start);

    assertThat(response.getJobsList()).extracting(Job::getId).containsExactly(id);
    System.out.printf(
        "long-poll wake-up: Lease returned %.2f ms after Enqueue was sent (timeout %d s)%n",
        delayMicros / 1000.0, waitSeconds);
    assertThat(delayMicros).isLessThan(TimeUnit.SECONDS.toMicros(waitSeconds) / 4);
  }
}
