package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetQueueRatesRequest;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.ListWorkersRequest;
import io.antrean.proto.v1.QueueRates;
import io.antrean.proto.v1.RateMinute;
import io.antrean.proto.v1.WorkerInfo;
import io.antrean.proto.v1.WorkerLiveness;
import io.antrean.proto.v1.WorkerStatus;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** AdminService ListWorkers and GetQueueRates over gRPC, fed by real worker calls. */
@Timeout(30)
class WorkersAndRatesTest {
  private static final WorkerInfo INFO =
      WorkerInfo.newBuilder()
          .setHost("host-a")
          .setVersion("9.9.9")
          .addQueues("default")
          .addTypes("email.send")
          .setConcurrency(4)
          .setHeartbeatInterval(Duration.newBuilder().setSeconds(5))
          .build();

  @TempDir Path dir;
  private InProcessCoordinator server;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.DIRECT, "email.send");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private void enqueue() {
    server
        .jobs()
        .enqueue(
            EnqueueRequest.newBuilder()
                .setType("email.send")
                .setPayload(ByteString.copyFromUtf8("{}"))
                .build());
  }

  private List<Job> lease(int max) {
    return server
        .workers()
        .lease(
            LeaseRequest.newBuilder()
                .setWorkerId("w1")
                .setMaxJobs(max)
                .setWait(Duration.getDefaultInstance())
                .setWorker(INFO)
                .build())
        .getJobsList();
  }

  @Test
  void listWorkersShowsWhatTheWorkerSaidAndTheLeasesItHolds() {
    enqueue();
    enqueue();
    enqueue();
    List<Job> leased = lease(3);
    server
        .workers()
        .complete(
            CompleteRequest.newBuilder()
                .setJobId(leased.get(0).getId())
                .setFencingToken(leased.get(0).getLease().getFencingToken())
                .setLeaseId(leased.get(0).getLease().getLeaseId())
                .setWorkerId("w1")
                .build());

    WorkerStatus w =
        server.admin().listWorkers(ListWorkersRequest.getDefaultInstance()).getWorkers(0);
    assertThat(w.getWorkerId()).isEqualTo("w1");
    assertThat(w.getInfo()).isEqualTo(INFO);
    assertThat(w.getLiveness()).isEqualTo(WorkerLiveness.WORKER_LIVENESS_LIVE);
    assertThat(w.getJobsHeld()).isEqualTo(2);
    assertThat(w.hasLastSeen()).isTrue();

    server
        .workers()
        .heartbeat(
            HeartbeatRequest.newBuilder()
                .setWorkerId("w1")
                .setWorker(INFO)
                .addLeases(
                    LeaseRef.newBuilder()
                        .setJobId(leased.get(1).getId())
                        .setFencingToken(leased.get(1).getLease().getFencingToken())
                        .setLeaseId(leased.get(1).getLease().getLeaseId()))
                .build());
    assertThat(
            server
                .admin()
                .listWorkers(ListWorkersRequest.getDefaultInstance())
                .getWorkers(0)
                .getJobsHeld())
        .as("the heartbeat carries every lease the worker still holds")
        .isEqualTo(1);
  }

  @Test
  void queueRatesCountTheLastMinutesEvents() {
    enqueue();
    enqueue();
    Job job = lease(1).get(0);
    server
        .workers()
        .complete(
            CompleteRequest.newBuilder()
                .setJobId(job.getId())
                .setFencingToken(job.getLease().getFencingToken())
                .setLeaseId(job.getLease().getLeaseId())
                .setWorkerId("w1")
                .build());

    QueueRates q =
        server.admin().getQueueRates(GetQueueRatesRequest.getDefaultInstance()).getQueues(0);
    assertThat(q.getQueue()).isEqualTo("default");
    assertThat(q.getMinutesCount()).isEqualTo(60);
    long enqueued = q.getMinutesList().stream().mapToLong(RateMinute::getEnqueued).sum();
    long started = q.getMinutesList().stream().mapToLong(RateMinute::getStarted).sum();
    long succeeded = q.getMinutesList().stream().mapToLong(RateMinute::getSucceeded).sum();
    assertThat(List.of(enqueued, started, succeeded)).containsExactly(2L, 1L, 1L);
  }

  @Test
  void badQueueForRatesIsInvalidArgument() {
    StatusRuntimeException e =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () ->
                server
                    .admin()
                    .getQueueRates(GetQueueRatesRequest.newBuilder().setQueue("a b").build()));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
  }
}
