package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.ByteString;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.HeartbeatResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How fast a cancel reaches a worker: its held Heartbeat is answered, woken, as soon as one of its
 * jobs is cancelled, and the worker's next Heartbeat says which. Two heartbeats for the cancel,
 * none of them waiting for an interval.
 */
@Timeout(60)
class HeldHeartbeatTest {
  private static final com.google.protobuf.Duration LONG_WAIT =
      com.google.protobuf.Duration.newBuilder().setSeconds(50).build();

  @TempDir Path dir;
  private InProcessCoordinator server;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.ON_EXECUTORS, "email.send");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Job enqueueAndLease(String worker) {
    server
        .jobs()
        .enqueue(
            EnqueueRequest.newBuilder()
                .setType("email.send")
                .setPayload(ByteString.copyFromUtf8("{}"))
                .build());
    return server
        .workers()
        .lease(
            LeaseRequest.newBuilder()
                .setWorkerId(worker)
                .setWait(com.google.protobuf.Duration.getDefaultInstance())
                .build())
        .getJobs(0);
  }

  private ListenableFuture<HeartbeatResponse> heldHeartbeat(String worker, Job... jobs) {
    HeartbeatRequest.Builder request =
        HeartbeatRequest.newBuilder().setWorkerId(worker).setWait(LONG_WAIT);
    for (Job job : jobs) {
      request.addLeases(
          LeaseRef.newBuilder()
              .setJobId(job.getId())
              .setFencingToken(job.getLease().getFencingToken())
              .setLeaseId(job.getLease().getLeaseId()));
    }
    return WorkerServiceGrpc.newFutureStub(server.channel)
        .withDeadlineAfter(55, TimeUnit.SECONDS)
        .heartbeat(request.build());
  }

  private void awaitHeld(int count) {
    Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .until(() -> server.coordinator.scheduler().heldHeartbeats() == count);
  }

  @Test
  void aCancelWakesTheWorkersHeldHeartbeatAndTheNextOneSaysCancelRequested() throws Exception {
    Job job = enqueueAndLease("w");
    ListenableFuture<HeartbeatResponse> held = heldHeartbeat("w", job);
    awaitHeld(1);

    server.jobs().cancelJob(CancelJobRequest.newBuilder().setId(job.getId()).build());

    // Far sooner than the 50 s wait: the cancel answered it.
    HeartbeatResponse woken = held.get(10, TimeUnit.SECONDS);
    assertThat(woken.getWoken()).isTrue();
    assertThat(woken.getLeases(0).getStatus()).isEqualTo(LeaseStatus.LEASE_STATUS_EXTENDED);
    HeartbeatResponse next = heldHeartbeat("w", job).get(10, TimeUnit.SECONDS);
    assertThat(next.getWoken()).isFalse();
    assertThat(next.getLeases(0).getStatus()).isEqualTo(LeaseStatus.LEASE_STATUS_CANCEL_REQUESTED);
    awaitHeld(0);
  }

  @Test
  void aHeartbeatHeldWithNoLeaseIsWokenByACancelOfAJobLeasedMeanwhile() throws Exception {
    ListenableFuture<HeartbeatResponse> held = heldHeartbeat("w");
    awaitHeld(1);
    Job job = enqueueAndLease("w");

    server.jobs().cancelJob(CancelJobRequest.newBuilder().setId(job.getId()).build());

    assertThat(held.get(10, TimeUnit.SECONDS).getWoken()).isTrue();
  }

  @Test
  void aCancelOfAnotherWorkersJobLeavesTheHeartbeatHeld() throws Exception {
    Job mine = enqueueAndLease("w");
    Job theirs = enqueueAndLease("other");
    ListenableFuture<HeartbeatResponse> held = heldHeartbeat("w", mine);
    awaitHeld(1);

    server.jobs().cancelJob(CancelJobRequest.newBuilder().setId(theirs.getId()).build());

    assertThat(held.isDone()).isFalse();
    assertThat(server.coordinator.scheduler().heldHeartbeats()).isEqualTo(1);
    held.cancel(true);
    awaitHeld(0);
  }

  @Test
  void aHeldHeartbeatIsAnsweredNotWokenWhenItsWaitRunsOut() throws Exception {
    Job job = enqueueAndLease("w");
    HeartbeatRequest request =
        HeartbeatRequest.newBuilder()
            .setWorkerId("w")
            .setWait(com.google.protobuf.Duration.newBuilder().setNanos(200_000_000))
            .addLeases(
                LeaseRef.newBuilder()
                    .setJobId(job.getId())
                    .setFencingToken(job.getLease().getFencingToken())
                    .setLeaseId(job.getLease().getLeaseId()))
            .build();

    HeartbeatResponse answer = server.workers().heartbeat(request);

    assertThat(answer.getWoken()).isFalse();
    assertThat(answer.getLeases(0).getStatus()).isEqualTo(LeaseStatus.LEASE_STATUS_EXTENDED);
    awaitHeld(0);
  }

  @Test
  void aHeartbeatWithALeaseAlreadyCancelledIsAnsweredAtOnce() throws Exception {
    Job job = enqueueAndLease("w");
    server.jobs().cancelJob(CancelJobRequest.newBuilder().setId(job.getId()).build());

    HeartbeatResponse answer = heldHeartbeat("w", job).get(10, TimeUnit.SECONDS);

    assertThat(answer.getLeases(0).getStatus())
        .isEqualTo(LeaseStatus.LEASE_STATUS_CANCEL_REQUESTED);
  }
}
