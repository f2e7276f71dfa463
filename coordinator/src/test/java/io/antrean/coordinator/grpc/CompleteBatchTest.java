package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CompleteBatch over an in-process channel: per-item answers and the refusal of bad batches. */
@Timeout(30)
class CompleteBatchTest {
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

  private List<Job> enqueueAndLease(int count) {
    for (int i = 0; i < count; i++) {
      jobs.enqueue(
          EnqueueRequest.newBuilder()
              .setType("email.send")
              .setPayload(ByteString.copyFromUtf8("{\"n\":" + i + "}"))
              .build());
    }
    return workers
        .lease(
            LeaseRequest.newBuilder()
                .setWorkerId("w")
                .setMaxJobs(count)
                .setWait(com.google.protobuf.Duration.getDefaultInstance())
                .build())
        .getJobsList();
  }

  private static CompleteItem item(long jobId, long token) {
    return CompleteItem.newBuilder().setJobId(jobId).setFencingToken(token).build();
  }

  private static CompleteItem item(Job job) {
    return item(job.getId(), job.getLease().getFencingToken()).toBuilder()
        .setLeaseId(job.getLease().getLeaseId())
        .build();
  }

  private JobState state(long jobId) {
    return jobs.getJob(GetJobRequest.newBuilder().setId(jobId).build()).getJob().getState();
  }

  @Test
  void eachItemIsAnsweredInRequestOrder() {
    List<Job> leased = enqueueAndLease(3);

    List<CompleteStatus> statuses =
        workers
            .completeBatch(
                CompleteBatchRequest.newBuilder()
                    .setWorkerId("w")
                    .addItems(
                        item(leased.get(2)).toBuilder()
                            .setResult(ByteString.copyFromUtf8("done"))
                            .setResultContentType("text/plain"))
                    .addItems(item(leased.get(0).getId(), 99))
                    .addItems(item(777_777, 1))
                    .addItems(item(leased.get(1)))
                    .build())
            .getOutcomesList()
            .stream()
            .map(o -> o.getStatus())
            .toList();

    assertThat(statuses)
        .containsExactly(
            CompleteStatus.COMPLETE_STATUS_COMPLETED,
            CompleteStatus.COMPLETE_STATUS_LEASE_LOST,
            CompleteStatus.COMPLETE_STATUS_NOT_FOUND,
            CompleteStatus.COMPLETE_STATUS_COMPLETED);
    Job done =
        jobs.getJob(GetJobRequest.newBuilder().setId(leased.get(2).getId()).build()).getJob();
    assertThat(done.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(done.getResult().toStringUtf8()).isEqualTo("done");
    assertThat(state(leased.get(0).getId())).isEqualTo(JobState.JOB_STATE_RUNNING);
    assertThat(state(leased.get(1).getId())).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
  }

  @Test
  void badBatchesAreInvalidArgumentNamingTheFieldAndStoreNothing() throws Exception {
    List<Job> leased = enqueueAndLease(1);
    CompleteBatchRequest.Builder twice =
        CompleteBatchRequest.newBuilder()
            .setWorkerId("w")
            .addItems(item(leased.get(0)))
            .addItems(item(leased.get(0)));
    CompleteBatchRequest.Builder tooMany = CompleteBatchRequest.newBuilder().setWorkerId("w");
    for (int i = 1; i <= 1001; i++) {
      tooMany.addItems(item(i, 1));
    }

    assertThat(violatedFields(twice.build())).containsExactly("items[1].job_id");
    assertThat(violatedFields(tooMany.build())).containsExactly("items");
    assertThat(violatedFields(CompleteBatchRequest.newBuilder().setWorkerId("w").build()))
        .containsExactly("items");
    assertThat(
            violatedFields(
                CompleteBatchRequest.newBuilder()
                    .addItems(item(leased.get(0)))
                    .addItems(item(0, 1))
                    .build()))
        .containsExactly("worker_id", "items[1].job_id");
    assertThat(state(leased.get(0).getId())).isEqualTo(JobState.JOB_STATE_RUNNING);
  }

  @Test
  void aResultPastOneMibIsRefusedNamingItsFieldAndTheJobStaysLeased() {
    List<Job> leased = enqueueAndLease(2);
    ByteString longest = ByteString.copyFrom(new byte[1 << 20]);
    ByteString tooLong = longest.concat(ByteString.copyFromUtf8("!"));

    assertThat(
            violatedFields(
                CompleteBatchRequest.newBuilder()
                    .setWorkerId("w")
                    .addItems(item(leased.get(0)))
                    .addItems(item(leased.get(1)).toBuilder().setResult(tooLong))
                    .build()))
        .containsExactly("items[1].result");
    Job first = leased.get(0);
    assertThat(
            ViolatedFields.of(
                () ->
                    workers.complete(
                        CompleteRequest.newBuilder()
                            .setJobId(first.getId())
                            .setFencingToken(first.getLease().getFencingToken())
                            .setLeaseId(first.getLease().getLeaseId())
                            .setWorkerId("w")
                            .setResult(tooLong)
                            .build())))
        .containsExactly("result");
    assertThat(state(leased.get(0).getId())).isEqualTo(JobState.JOB_STATE_RUNNING);
    assertThat(state(leased.get(1).getId())).isEqualTo(JobState.JOB_STATE_RUNNING);

    workers.completeBatch(
        CompleteBatchRequest.newBuilder()
            .setWorkerId("w")
            .addItems(item(leased.get(1)).toBuilder().setResult(longest))
            .build());
    assertThat(
            jobs.getJob(GetJobRequest.newBuilder().setId(leased.get(1).getId()).build())
                .getJob()
                .getResult()
                .size())
        .isEqualTo(1 << 20);
  }

  private List<String> violatedFields(CompleteBatchRequest request) {
    return ViolatedFields.of(() -> workers.completeBatch(request));
  }

  @Test
  void onlyTheHotCallsRunOnTheNetworkThread() {
    HotCallExecutors hot = HotCallExecutors.whollyOnTheNetworkThread(Runnable::run);
    assertThat(hot.isHot(JobServiceGrpc.getEnqueueMethod().getFullMethodName())).isTrue();
    assertThat(hot.isHot(JobServiceGrpc.getProduceMethod().getFullMethodName())).isTrue();
    assertThat(hot.isHot(WorkerServiceGrpc.getLeaseMethod().getFullMethodName())).isTrue();
    assertThat(hot.isHot(WorkerServiceGrpc.getCompleteBatchMethod().getFullMethodName())).isTrue();
    assertThat(hot.isHot(WorkerServiceGrpc.getWorkMethod().getFullMethodName())).isTrue();
    assertThat(hot.isHot(JobServiceGrpc.getGetJobMethod().getFullMethodName())).isFalse();
    assertThat(hot.isHot(WorkerServiceGrpc.getHeartbeatMethod().getFullMethodName())).isFalse();
  }

  @Test
  void onAStoreThatMayBlockOnlyTheStreamsListenOnTheNetworkThread() {
    HotCallExecutors streams = HotCallExecutors.streamsOnTheNetworkThread(Runnable::run);
    assertThat(streams.isHot(JobServiceGrpc.getProduceMethod().getFullMethodName())).isTrue();
    assertThat(streams.isHot(WorkerServiceGrpc.getWorkMethod().getFullMethodName())).isTrue();
    assertThat(streams.isHot(JobServiceGrpc.getEnqueueMethod().getFullMethodName())).isFalse();
    assertThat(streams.isHot(WorkerServiceGrpc.getLeaseMethod().getFullMethodName())).isFalse();
    assertThat(streams.isHot(WorkerServiceGrpc.getCompleteBatchMethod().getFullMethodName()))
        .isFalse();
    assertThat(streams.isHot(JobServiceGrpc.getGetJobMethod().getFullMethodName())).isFalse();
  }
}
