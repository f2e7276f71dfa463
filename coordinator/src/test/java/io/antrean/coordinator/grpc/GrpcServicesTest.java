package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The gRPC contract: status codes, error details, paging, health, over an in-process channel. */
@Timeout(30)
class GrpcServicesTest {
  @TempDir Path dir;
  private InProcessCoordinator server;
  private JobServiceGrpc.JobServiceBlockingStub jobs;
  private WorkerServiceGrpc.WorkerServiceBlockingStub workers;

  @BeforeEach
  void start() throws Exception {
    server =
        InProcessCoordinator.start(
            dir, InProcessCoordinator.Calls.DIRECT, "email.send", "report.build");
    jobs = server.jobs();
    workers = server.workers();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static EnqueueRequest email() {
    return EnqueueRequest.newBuilder()
        .setType("email.send")
        .setPayload(ByteString.copyFromUtf8("{\"to\":\"a@example.com\"}"))
        .build();
  }

  private static <T extends com.google.protobuf.Message> T detail(
      StatusRuntimeException e, Class<T> type) throws Exception {
    for (Any any : io.grpc.protobuf.StatusProto.fromThrowable(e).getDetailsList()) {
      if (any.is(type)) {
        return any.unpack(type);
      }
    }
    throw new AssertionError("no " + type.getSimpleName() + " in " + e);
  }

  @Test
  void unknownJobTypeIsInvalidArgumentWithItsFieldViolation() throws Exception {
    StatusRuntimeException e =
        catchStatus(() -> jobs.enqueue(EnqueueRequest.newBuilder().setType("send-fax").build()));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    BadRequest bad = detail(e, BadRequest.class);
    assertThat(bad.getFieldViolationsList())
        .extracting(v -> v.getField() + ": " + v.getDescription())
        .containsExactly("type: unknown job type: send-fax");
  }

  @Test
  void oversizePayloadAndNegativeDelayAreBothReported() throws Exception {
    EnqueueRequest bad =
        email().toBuilder()
            .setPayload(ByteString.copyFrom(new byte[(1 << 20) + 1]))
            .setDelay(com.google.protobuf.Duration.newBuilder().setSeconds(-5))
            .build();
    StatusRuntimeException e = catchStatus(() -> jobs.enqueue(bad));
    assertThat(detail(e, BadRequest.class).getFieldViolationsList())
        .extracting(BadRequest.FieldViolation::getField)
        .containsExactlyInAnyOrder("payload", "delay");
  }

  @Test
  void batchIsAllOrNoneAndNamesTheFaultyJob() throws Exception {
    EnqueueBatchRequest batch =
        EnqueueBatchRequest.newBuilder()
            .addJobs(email())
            .addJobs(EnqueueRequest.newBuilder().setType("email.send").setQueue("no spaces"))
            .build();
    StatusRuntimeException e = catchStatus(() -> jobs.enqueueBatch(batch));
    assertThat(detail(e, BadRequest.class).getFieldViolations(0).getField())
        .isEqualTo("jobs[1].queue");
    assertThat(jobs.listJobs(ListJobsRequest.getDefaultInstance()).getJobsList()).isEmpty();
  }

  @Test
  void unknownJobIsNotFound() throws Exception {
    StatusRuntimeException e =
        catchStatus(() -> jobs.getJob(GetJobRequest.newBuilder().setId(999).build()));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(detail(e, ErrorInfo.class).getReason()).isEqualTo("JOB_NOT_FOUND");
  }

  @Test
  void sameIdempotencyKeyDeduplicatesAndADifferentPayloadIsAlreadyExists() throws Exception {
    EnqueueRequest keyed = email().toBuilder().setIdempotencyKey("order-7").build();
    long id = jobs.enqueue(keyed).getJob().getId();
    assertThat(jobs.enqueue(keyed).getDeduplicated()).isTrue();
    assertThat(jobs.enqueue(keyed).getJob().getId()).isEqualTo(id);
    StatusRuntimeException e =
        catchStatus(
            () ->
                jobs.enqueue(keyed.toBuilder().setPayload(ByteString.copyFromUtf8("{}")).build()));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS);
  }

  @Test
  void staleFencingTokenIsFailedPreconditionLeaseLost() throws Exception {
    jobs.enqueue(email());
    Job leased =
        workers
            .lease(
                LeaseRequest.newBuilder()
                    .setWorkerId("w")
                    .setWait(com.google.protobuf.Duration.getDefaultInstance())
                    .build())
            .getJobs(0);
    StatusRuntimeException e =
        catchStatus(
            () ->
                workers.complete(
                    CompleteRequest.newBuilder()
                        .setJobId(leased.getId())
                        .setWorkerId("w")
                        .setFencingToken(leased.getLease().getFencingToken() + 1)
                        .build()));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(detail(e, ErrorInfo.class).getReason()).isEqualTo("LEASE_LOST");
    assertThat(
            workers
                .heartbeat(
                    HeartbeatRequest.newBuilder()
                        .setWorkerId("w")
                        .addLeases(
                            LeaseRef.newBuilder()
                                .setJobId(leased.getId())
                                .setFencingToken(leased.getLease().getFencingToken())
                                .setLeaseId(leased.getLease().getLeaseId()))
                        .addLeases(
                            LeaseRef.newBuilder().setJobId(leased.getId()).setFencingToken(-1))
                        .build())
                .getLeasesList())
        .extracting(s -> s.getStatus())
        .containsExactly(LeaseStatus.LEASE_STATUS_EXTENDED, LeaseStatus.LEASE_STATUS_LOST);
  }

  @Test
  void leaseWithNothingReadyAndZeroWaitAnswersOkAndEmpty() {
    assertThat(
            workers
                .lease(
                    LeaseRequest.newBuilder()
                        .setWorkerId("w")
                        .setWait(com.google.protobuf.Duration.getDefaultInstance())
                        .build())
                .getJobsList())
        .isEmpty();
  }

  @Test
  void listPagesThroughEveryJobNewestFirst() {
    for (int i = 0; i < 5; i++) {
      jobs.enqueue(email());
    }
    List<Long> seen = new ArrayList<>();
    String token = "";
    do {
      ListJobsResponse page =
          jobs.listJobs(
              ListJobsRequest.newBuilder()
                  .setPageSize(2)
                  .setState(JobState.JOB_STATE_PENDING)
                  .setPageToken(token)
                  .build());
      page.getJobsList().forEach(j -> seen.add(j.getId()));
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    assertThat(seen).containsExactly(5L, 4L, 3L, 2L, 1L);
  }

  @Test
  void forgedPageTokenIsInvalidArgument() {
    StatusRuntimeException e =
        catchStatus(
            () -> jobs.listJobs(ListJobsRequest.newBuilder().setPageToken("garbage!").build()));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
  }

  @Test
  void adminAndCancelErrorsCarryTheirReasons() throws Exception {
    long id = jobs.enqueue(email()).getJob().getId();
    AdminServiceGrpc.AdminServiceBlockingStub admin = server.admin();
    StatusRuntimeException notDead =
        catchStatus(() -> admin.getDeadLetter(GetDeadLetterRequest.newBuilder().setId(id).build()));
    assertThat(notDead.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(detail(notDead, ErrorInfo.class).getReason()).isEqualTo("NOT_DEAD_LETTERED");

    StatusRuntimeException nothing =
        catchStatus(() -> admin.redriveDeadLetters(RedriveDeadLettersRequest.getDefaultInstance()));
    assertThat(nothing.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(detail(nothing, BadRequest.class).getFieldViolations(0).getField()).isEqualTo("ids");

    assertThat(jobs.cancelJob(CancelJobRequest.newBuilder().setId(id).build()).getJob().getState())
        .isEqualTo(JobState.JOB_STATE_CANCELLED);
    assertThat(
            admin
                .purgeDeadLetters(PurgeDeadLettersRequest.newBuilder().setAll(true).build())
                .getPurged())
        .isZero();
    StatusRuntimeException unknown =
        catchStatus(() -> jobs.cancelJob(CancelJobRequest.newBuilder().setId(12345).build()));
    assertThat(unknown.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
  }

  @Test
  void healthReportsServing() {
    HealthCheckResponse health =
        HealthGrpc.newBlockingStub(server.channel).check(HealthCheckRequest.getDefaultInstance());
    assertThat(health.getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    assertThat(
            HealthGrpc.newBlockingStub(server.channel)
                .check(
                    HealthCheckRequest.newBuilder().setService(JobServiceGrpc.SERVICE_NAME).build())
                .getStatus())
        .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
  }

  private static StatusRuntimeException catchStatus(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e;
    }
    throw new AssertionError("expected an error status");
  }
}
