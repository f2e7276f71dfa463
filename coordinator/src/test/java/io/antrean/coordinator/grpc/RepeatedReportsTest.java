package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.FailResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker whose answer to Complete, CompleteBatch or Fail was lost sends it again: the same call
 * gets the same OK, and the job's history records it once. Anything else stays LEASE_LOST.
 */
@Timeout(30)
class RepeatedReportsTest {
  @TempDir Path dir;
  private InProcessCoordinator server;
  private JobServiceGrpc.JobServiceBlockingStub jobs;
  private WorkerServiceGrpc.WorkerServiceBlockingStub workers;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.ON_EXECUTORS, "email.send");
    jobs = server.jobs();
    workers = server.workers();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Job enqueueAndLease() {
    jobs.enqueue(
        EnqueueRequest.newBuilder()
            .setType("email.send")
            .setPayload(ByteString.copyFromUtf8("{}"))
            .build());
    return workers
        .lease(
            LeaseRequest.newBuilder()
                .setWorkerId("w")
                .setWait(com.google.protobuf.Duration.getDefaultInstance())
                .build())
        .getJobs(0);
  }

  private static CompleteRequest complete(Job leased, String worker, String result) {
    return CompleteRequest.newBuilder()
        .setJobId(leased.getId())
        .setFencingToken(leased.getLease().getFencingToken())
        .setLeaseId(leased.getLease().getLeaseId())
        .setWorkerId(worker)
        .setResult(ByteString.copyFromUtf8(result))
        .setResultContentType("text/plain")
        .build();
  }

  private List<AttemptOutcome> history(long jobId) {
    return jobs
        .getJob(GetJobRequest.newBuilder().setId(jobId).build())
        .getJob()
        .getHistoryList()
        .stream()
        .map(Attempt::getOutcome)
        .toList();
  }

  private static Status.Code code(Runnable call) {
    return catchThrowableOfType(StatusRuntimeException.class, call::run).getStatus().getCode();
  }

  @Test
  void aRepeatedCompleteIsOkAndRecordedOnce() {
    Job leased = enqueueAndLease();
    workers.complete(complete(leased, "w", "sent"));

    workers.complete(complete(leased, "w", "sent"));

    assertThat(history(leased.getId())).containsExactly(AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED);
  }

  @Test
  void aCompleteWithAnotherResultOrFromAnotherWorkerIsStillLeaseLost() {
    Job leased = enqueueAndLease();
    workers.complete(complete(leased, "w", "sent"));

    assertThat(code(() -> workers.complete(complete(leased, "w", "other"))))
        .isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(code(() -> workers.complete(complete(leased, "w2", "sent"))))
        .isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(history(leased.getId()))
        .containsExactly(
            AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED,
            AttemptOutcome.ATTEMPT_OUTCOME_STALE_COMPLETION_REJECTED,
            AttemptOutcome.ATTEMPT_OUTCOME_STALE_COMPLETION_REJECTED);
  }

  @Test
  void aRepeatedBatchItemIsCompletedAndRecordedOnce() {
    Job leased = enqueueAndLease();
    CompleteBatchRequest batch =
        CompleteBatchRequest.newBuilder()
            .setWorkerId("w")
            .addItems(
                CompleteItem.newBuilder()
                    .setJobId(leased.getId())
                    .setFencingToken(leased.getLease().getFencingToken())
                    .setLeaseId(leased.getLease().getLeaseId())
                    .setResult(ByteString.copyFromUtf8("sent")))
            .build();
    workers.completeBatch(batch);

    assertThat(workers.completeBatch(batch).getOutcomes(0).getStatus())
        .isEqualTo(CompleteStatus.COMPLETE_STATUS_COMPLETED);
    assertThat(history(leased.getId())).containsExactly(AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED);
  }

  @Test
  void aRepeatedFailIsOkWithTheSameAnswerAndRecordedOnce() {
    Job leased = enqueueAndLease();
    FailRequest fail =
        FailRequest.newBuilder()
            .setJobId(leased.getId())
            .setFencingToken(leased.getLease().getFencingToken())
            .setLeaseId(leased.getLease().getLeaseId())
            .setWorkerId("w")
            .setKind(ErrorKind.ERROR_KIND_PERMANENT)
            .setErrorType("BadPayload")
            .setErrorMessage("missing field 'to'")
            .build();
    FailResponse first = workers.fail(fail);

    FailResponse again = workers.fail(fail);

    assertThat(again).isEqualTo(first);
    assertThat(again.getState()).isEqualTo(JobState.JOB_STATE_FAILED);
    assertThat(history(leased.getId()))
        .containsExactly(AttemptOutcome.ATTEMPT_OUTCOME_FAILED_PERMANENT);
    assertThat(
            code(() -> workers.fail(fail.toBuilder().setErrorMessage("another message").build())))
        .isEqualTo(Status.Code.FAILED_PRECONDITION);
  }
}
