package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Queue pause and resume over gRPC, in process, on a SQLite store. */
@Timeout(30)
class QueuePauseTest {
  @TempDir Path dir;
  private InProcessCoordinator server;
  private JobServiceGrpc.JobServiceBlockingStub jobs;
  private AdminServiceGrpc.AdminServiceBlockingStub admin;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.DIRECT, "email.send");
    jobs = server.jobs();
    admin = server.admin();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private void enqueueEmail() {
    jobs.enqueue(
        EnqueueRequest.newBuilder()
            .setType("email.send")
            .setPayload(ByteString.copyFromUtf8("{}"))
            .build());
  }

  private static LeaseRequest lease(long waitSeconds) {
    return LeaseRequest.newBuilder()
        .setWorkerId("w")
        .setWait(Duration.newBuilder().setSeconds(waitSeconds))
        .build();
  }

  @Test
  void pausedQueueLeasesNothingEvenWithJobsPending() {
    enqueueEmail();

    QueueInfo paused =
        admin.pauseQueue(PauseQueueRequest.newBuilder().setQueue("default").build()).getQueue();

    assertThat(paused.getPaused()).isTrue();
    assertThat(paused.hasPausedAt()).isTrue();
    assertThat(paused.getStats().getPending()).isEqualTo(1);
    assertThat(server.workers().lease(lease(0)).getJobsList()).isEmpty();
    assertThat(admin.listQueues(ListQueuesRequest.getDefaultInstance()).getQueuesList())
        .singleElement()
        .satisfies(q -> assertThat(q.getPaused()).isTrue());
  }

  @Test
  void resumeHandsTheJobToAWaitingLeasePromptly() throws Exception {
    admin.pauseQueue(PauseQueueRequest.newBuilder().setQueue("default").build());
    enqueueEmail();
    ListenableFuture<LeaseResponse> waiting =
        WorkerServiceGrpc.newFutureStub(server.channel)
            .withDeadlineAfter(25, TimeUnit.SECONDS)
            .lease(lease(20));

    QueueInfo resumed =
        admin.resumeQueue(ResumeQueueRequest.newBuilder().setQueue("default").build()).getQueue();

    assertThat(resumed.getPaused()).isFalse();
    assertThat(resumed.hasPausedAt()).isFalse();
    assertThat(waiting.get(5, TimeUnit.SECONDS).getJobsList()).hasSize(1);
  }

  @Test
  void pausingAQueueWithoutJobsIsListedWithZeroCounts() {
    admin.pauseQueue(PauseQueueRequest.newBuilder().setQueue("reports").build());
    admin.pauseQueue(PauseQueueRequest.newBuilder().setQueue("reports").build());
    enqueueEmail();

    assertThat(admin.listQueues(ListQueuesRequest.getDefaultInstance()).getQueuesList())
        .extracting(q -> q.getName() + " " + q.getPaused() + " " + q.getStats().getPending())
        .containsExactly("default false 1", "reports true 0");
  }

  @Test
  void badQueueNameIsInvalidArgument() {
    StatusRuntimeException e =
        catchThrowableOfType(
            () -> admin.pauseQueue(PauseQueueRequest.newBuilder().setQueue("no spaces").build()),
            StatusRuntimeException.class);
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    StatusRuntimeException empty =
        catchThrowableOfType(
            () -> admin.resumeQueue(ResumeQueueRequest.getDefaultInstance()),
            StatusRuntimeException.class);
    assertThat(empty.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
  }
}
