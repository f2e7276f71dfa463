package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteOutcome;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CompleteBatch with lease_next: the items are judged and stored, then jobs are leased in the same
 * call as a Lease with no wait would lease them; a bad lease_next refuses the whole call first.
 */
@Timeout(30)
class CompleteThenLeaseTest {
  private static final com.google.protobuf.Duration NO_WAIT =
      com.google.protobuf.Duration.getDefaultInstance();

  @TempDir Path dir;
  private InProcessCoordinator server;
  private JobServiceGrpc.JobServiceBlockingStub jobs;
  private WorkerServiceGrpc.WorkerServiceBlockingStub workers;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.ON_EXECUTORS, "t");
    jobs = server.jobs();
    workers = server.workers();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private long enqueue(int priority) {
    return jobs.enqueue(
            EnqueueRequest.newBuilder()
                .setType("t")
                .setPriority(priority)
                .setPayload(ByteString.copyFromUtf8("{}"))
                .build())
        .getJob()
        .getId();
  }

  private Job leaseOne() {
    return workers
        .lease(LeaseRequest.newBuilder().setWorkerId("w").setMaxJobs(1).setWait(NO_WAIT).build())
        .getJobs(0);
  }

  private static CompleteItem item(Job job) {
    return CompleteItem.newBuilder()
        .setJobId(job.getId())
        .setFencingToken(job.getLease().getFencingToken())
        .setLeaseId(job.getLease().getLeaseId())
        .build();
  }

  private static CompleteBatchRequest completeThenLease(Job done, LeaseRequest.Builder next) {
    return CompleteBatchRequest.newBuilder()
        .setWorkerId("w")
        .addItems(item(done))
        .setLeaseNext(next)
        .build();
  }

  private Job job(long id) {
    return jobs.getJob(GetJobRequest.newBuilder().setId(id).build()).getJob();
  }

  @Test
  void theItemsAreStoredAndTheReadyJobsLeasedInLeasesOrder() {
    long first = enqueue(0);
    Job running = leaseOne();
    assertThat(running.getId()).isEqualTo(first);
    long low = enqueue(0);
    long high = enqueue(5);
    long third = enqueue(0);

    CompleteBatchResponse answer =
        workers.completeBatch(completeThenLease(running, LeaseRequest.newBuilder().setMaxJobs(2)));

    assertThat(answer.getOutcomesList())
        .extracting(CompleteOutcome::getStatus)
        .containsExactly(CompleteStatus.COMPLETE_STATUS_COMPLETED);
    assertThat(job(first).getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(answer.getLeasedJobsList()).extracting(Job::getId).containsExactly(high, low);
    for (Job leased : answer.getLeasedJobsList()) {
      assertThat(leased.getLease().getWorkerId()).isEqualTo("w");
      assertThat(leased.getLease().getLeaseId()).isNotEmpty();
      Job stored = job(leased.getId());
      assertThat(stored.getState()).isEqualTo(JobState.JOB_STATE_RUNNING);
      assertThat(stored.getLease().getFencingToken())
          .isEqualTo(leased.getLease().getFencingToken());
    }
    assertThat(job(third).getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    // The leases it granted are real: they complete like any other.
    CompleteBatchResponse next =
        workers.completeBatch(
            CompleteBatchRequest.newBuilder()
                .setWorkerId("w")
                .addItems(item(answer.getLeasedJobs(0)))
                .addItems(item(answer.getLeasedJobs(1)))
                .build());
    assertThat(next.getOutcomesList())
        .extracting(CompleteOutcome::getStatus)
        .containsOnly(CompleteStatus.COMPLETE_STATUS_COMPLETED);
    assertThat(next.getLeasedJobsList()).isEmpty();
  }

  @Test
  void anEmptyOrPausedQueueAnswersTheOutcomesAndNoJobsAtOnce() {
    enqueue(0);
    Job running = leaseOne();

    CompleteBatchResponse empty =
        workers.completeBatch(completeThenLease(running, LeaseRequest.newBuilder().setMaxJobs(5)));
    assertThat(empty.getOutcomes(0).getStatus())
        .isEqualTo(CompleteStatus.COMPLETE_STATUS_COMPLETED);
    assertThat(empty.getLeasedJobsList()).isEmpty();

    enqueue(0);
    Job another = leaseOne();
    long waiting = enqueue(0);
    server.admin().pauseQueue(PauseQueueRequest.newBuilder().setQueue("default").build());
    CompleteBatchResponse paused =
        workers.completeBatch(completeThenLease(another, LeaseRequest.newBuilder().setMaxJobs(5)));
    assertThat(paused.getOutcomes(0).getStatus())
        .isEqualTo(CompleteStatus.COMPLETE_STATUS_COMPLETED);
    assertThat(paused.getLeasedJobsList()).isEmpty();
    assertThat(job(waiting).getState()).isEqualTo(JobState.JOB_STATE_PENDING);
  }

  @Test
  void aBadLeaseNextIsInvalidArgumentUnderLeaseNextAndStoresNothing() throws Exception {
    enqueue(0);
    Job running = leaseOne();
    long pending = enqueue(0);

    assertThat(
            violatedFields(
                completeThenLease(
                    running,
                    LeaseRequest.newBuilder()
                        .setWait(com.google.protobuf.Duration.newBuilder().setSeconds(5)))))
        .containsExactly("lease_next.wait");
    assertThat(
            violatedFields(
                completeThenLease(running, LeaseRequest.newBuilder().setWorkerId("someone-else"))))
        .containsExactly("lease_next.worker_id");
    assertThat(
            violatedFields(completeThenLease(running, LeaseRequest.newBuilder().setMaxJobs(257))))
        .containsExactly("lease_next.max_jobs");
    assertThat(
            violatedFields(completeThenLease(running, LeaseRequest.newBuilder().setQueue("a b"))))
        .containsExactly("lease_next.queue");

    assertThat(job(running.getId()).getState()).isEqualTo(JobState.JOB_STATE_RUNNING);
    assertThat(job(pending).getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    // The same worker id spelled out, and a zero wait, are accepted.
    CompleteBatchResponse answer =
        workers.completeBatch(
            completeThenLease(
                running, LeaseRequest.newBuilder().setWorkerId("w").setWait(NO_WAIT)));
    assertThat(answer.getOutcomes(0).getStatus())
        .isEqualTo(CompleteStatus.COMPLETE_STATUS_COMPLETED);
    assertThat(answer.getLeasedJobsList()).extracting(Job::getId).containsExactly(pending);
  }

  private List<String> violatedFields(CompleteBatchRequest request) {
    return ViolatedFields.of(() -> workers.completeBatch(request));
  }
}
