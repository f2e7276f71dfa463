package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.rpc.ErrorInfo;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.Dependency;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Job dependencies over gRPC, in process, on a SQLite store: fan-out, fan-in, bad input. */
@Timeout(30)
class DependenciesTest {
  @TempDir Path dir;
  private InProcessCoordinator server;
  private JobServiceGrpc.JobServiceBlockingStub jobs;

  @BeforeEach
  void start() throws Exception {
    server =
        InProcessCoordinator.start(dir, InProcessCoordinator.Calls.ON_EXECUTORS, "part", "merge");
    jobs = server.jobs();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static EnqueueRequest.Builder request(String type, String queue, Long... dependsOn) {
    return EnqueueRequest.newBuilder()
        .setType(type)
        .setQueue(queue)
        .setPayload(ByteString.copyFromUtf8("{}"))
        .addAllDependsOn(List.of(dependsOn));
  }

  private long enqueue(EnqueueRequest.Builder request) {
    return jobs.enqueue(request.build()).getJob().getId();
  }

  private static LeaseRequest lease(String queue, long waitSeconds) {
    return LeaseRequest.newBuilder()
        .setWorkerId("w")
        .setQueue(queue)
        .setMaxJobs(10)
        .setWait(Duration.newBuilder().setSeconds(waitSeconds))
        .build();
  }

  private void complete(Job job, String result) {
    server
        .workers()
        .complete(
            CompleteRequest.newBuilder()
                .setJobId(job.getId())
                .setFencingToken(job.getLease().getFencingToken())
                .setLeaseId(job.getLease().getLeaseId())
                .setWorkerId("w")
                .setResult(ByteString.copyFromUtf8(result))
                .setResultContentType("application/json")
                .build());
  }

  @Test
  void fanOutFanInWakesAWaitingLeaseAndTheMergeReadsThePartsResults() throws Exception {
    long a = enqueue(request("part", "parts"));
    long b = enqueue(request("part", "parts"));
    Job merge =
        jobs.enqueue(
                request("merge", "merges", b, a, b)
                    .setOnDependencyFailure(DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER)
                    .build())
            .getJob();
    assertThat(merge.getState()).isEqualTo(JobState.JOB_STATE_WAITING);
    assertThat(merge.getDependsOnList()).containsExactly(a, b);
    assertThat(merge.getOnDependencyFailure())
        .isEqualTo(DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER);
    assertThat(
            jobs.getStats(GetStatsRequest.newBuilder().setQueue("merges").build())
                .getQueues(0)
                .getWaiting())
        .isEqualTo(1);
    ListenableFuture<LeaseResponse> waiting =
        WorkerServiceGrpc.newFutureStub(server.channel)
            .withDeadlineAfter(25, TimeUnit.SECONDS)
            .lease(lease("merges", 20));

    List<Job> parts = server.workers().lease(lease("parts", 0)).getJobsList();
    assertThat(parts).hasSize(2);
    complete(parts.get(0), "{\"n\":" + parts.get(0).getId() + "}");
    complete(parts.get(1), "{\"n\":" + parts.get(1).getId() + "}");

    assertThat(waiting.get(10, TimeUnit.SECONDS).getJobsList())
        .extracting(Job::getId)
        .containsExactly(merge.getId());
    List<Dependency> dependencies =
        jobs.listDependencies(ListDependenciesRequest.newBuilder().setId(merge.getId()).build())
            .getDependenciesList();
    assertThat(dependencies).extracting(Dependency::getId).containsExactly(a, b);
    assertThat(dependencies)
        .allSatisfy(
            d -> {
              assertThat(d.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
              assertThat(d.getResult().toStringUtf8()).isEqualTo("{\"n\":" + d.getId() + "}");
              assertThat(d.getResultContentType()).isEqualTo("application/json");
            });
    Job listed = jobs.listJobs(ListJobsRequest.newBuilder().setQueue("merges").build()).getJobs(0);
    assertThat(listed.getDependsOnList()).containsExactly(a, b);
    assertThat(jobs.getJob(GetJobRequest.newBuilder().setId(a).build()).getJob().getDependsOnList())
        .isEmpty();
  }

  @Test
  void moreThanAHundredDependenciesAreInvalidArgumentNamingTheField() throws Exception {
    Long[] ids = LongStream.rangeClosed(1, 101).boxed().toArray(Long[]::new);

    assertThat(ViolatedFields.of(() -> jobs.enqueue(request("merge", "m", ids).build())))
        .containsExactly("depends_on");
    assertThat(ViolatedFields.of(() -> jobs.enqueue(request("merge", "m", -4L).build())))
        .containsExactly("depends_on");
    assertThat(
            ViolatedFields.of(
                () ->
                    jobs.enqueueBatch(
                        EnqueueBatchRequest.newBuilder()
                            .addJobs(request("part", "p"))
                            .addJobs(request("merge", "m", ids))
                            .build())))
        .containsExactly("jobs[1].depends_on");
  }

  @Test
  void anUnknownDependencyIsNotFoundNamingTheFieldAndNothingIsStored() {
    long a = enqueue(request("part", "parts"));

    StatusRuntimeException e =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () ->
                jobs.enqueueBatch(
                    EnqueueBatchRequest.newBuilder()
                        .addJobs(request("part", "parts"))
                        .addJobs(request("merge", "m", a, 777_777L))
                        .build()));

    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    ErrorInfo info = errorInfo(e);
    assertThat(info.getReason()).isEqualTo("DEPENDENCY_NOT_FOUND");
    assertThat(info.getMetadataMap())
        .containsEntry("field", "jobs[1].depends_on")
        .containsEntry("job_id", "777777");
    assertThat(jobs.listJobs(ListJobsRequest.getDefaultInstance()).getJobsList())
        .extracting(Job::getId)
        .containsExactly(a);
  }

  @Test
  void listDependenciesOfAnUnknownJobIsNotFound() {
    StatusRuntimeException e =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () -> jobs.listDependencies(ListDependenciesRequest.newBuilder().setId(5).build()));

    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
  }

  private static ErrorInfo errorInfo(StatusRuntimeException e) {
    try {
      for (Any any : StatusProto.fromThrowable(e).getDetailsList()) {
        if (any.is(ErrorInfo.class)) {
          return any.unpack(ErrorInfo.class);
        }
      }
    } catch (com.google.protobuf.InvalidProtocolBufferException bad) {
      throw new AssertionError(bad);
    }
    throw new AssertionError("no ErrorInfo in " + e);
  }
}
