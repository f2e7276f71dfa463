package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.rpc.BadRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Work stream: each lease and complete_batch is answered under its request id as its unary call
 * would be, in the order the answers are ready; a cancel or the stream's end withdraws a waiting
 * lease; a request the stream cannot carry ends it with INVALID_ARGUMENT.
 */
@Timeout(30)
class WorkStreamTest {
  private static final com.google.protobuf.Duration LONG_WAIT = TestWorkStream.LONG_WAIT;

  @TempDir Path dir;
  private InProcessCoordinator server;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.ON_EXECUTORS, "t");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private long enqueue() {
    return server
        .jobs()
        .enqueue(
            EnqueueRequest.newBuilder()
                .setType("t")
                .setPayload(ByteString.copyFromUtf8("{}"))
                .build())
        .getJob()
        .getId();
  }

  private JobState state(long id) {
    return server.jobs().getJob(GetJobRequest.newBuilder().setId(id).build()).getJob().getState();
  }

  private static CompleteItem item(Job job) {
    return CompleteItem.newBuilder()
        .setJobId(job.getId())
        .setFencingToken(job.getLease().getFencingToken())
        .setLeaseId(job.getLease().getLeaseId())
        .build();
  }

  private static com.google.protobuf.Duration noWait() {
    return TestWorkStream.NO_WAIT;
  }

  @Test
  void aWaitingLeaseIsAnsweredAfterALaterCompleteBatchEachUnderItsOwnId() throws Exception {
    long first = enqueue();
    TestWorkStream stream = new TestWorkStream(server.channel);
    stream.lease(1, 1, noWait());
    WorkResponse leased = stream.next();
    assertThat(leased.getRequestId()).isEqualTo(1);
    Job running = leased.getLease().getJobs(0);
    assertThat(running.getId()).isEqualTo(first);

    stream.lease(2, 1, LONG_WAIT);
    stream.completeBatch(3, item(running));

    WorkResponse completed = stream.next();
    assertThat(completed.getRequestId()).isEqualTo(3);
    assertThat(completed.getCompleteBatch().getOutcomes(0).getStatus())
        .isEqualTo(CompleteStatus.COMPLETE_STATUS_COMPLETED);
    assertThat(state(first)).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    long second = enqueue();
    WorkResponse waited = stream.next();
    assertThat(waited.getRequestId()).isEqualTo(2);
    assertThat(waited.getLease().getJobsList()).extracting(Job::getId).containsExactly(second);
    assertThat(state(second)).isEqualTo(JobState.JOB_STATE_RUNNING);
  }

  @Test
  void aRequestIsJudgedAsItsCallWouldBeAndTheStreamGoesOn() throws Exception {
    long id = enqueue();
    TestWorkStream stream = new TestWorkStream(server.channel);
    stream.lease(1, 1, noWait());
    Job running = stream.next().getLease().getJobs(0);

    stream.completeBatch(2, item(running).toBuilder().setLeaseId("not-a-lease-id").build());
    WorkResponse refused = stream.next();
    assertThat(refused.getRequestId()).isEqualTo(2);
    assertThat(refused.getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(
            refused
                .getError()
                .getDetails(0)
                .unpack(BadRequest.class)
                .getFieldViolations(0)
                .getField())
        .isEqualTo("items[0].lease_id");
    stream.completeBatch(3, item(running).toBuilder().setFencingToken(99).build());
    assertThat(stream.next().getCompleteBatch().getOutcomes(0).getStatus())
        .isEqualTo(CompleteStatus.COMPLETE_STATUS_LEASE_LOST);
    stream.completeBatch(4, item(running));
    assertThat(stream.next().getCompleteBatch().getOutcomes(0).getStatus())
        .isEqualTo(CompleteStatus.COMPLETE_STATUS_COMPLETED);
    assertThat(state(id)).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(stream.end).isNotDone();
  }

  @Test
  void aCancelledLeaseTakesNoJobAndNeitherDoesOneLeftWaitingByAStreamThatEnded() throws Exception {
    TestWorkStream stream = new TestWorkStream(server.channel);
    stream.lease(1, 1, LONG_WAIT);
    stream.cancel(1);
    // A request answered after the cancel shows the cancel was taken first.
    stream.completeBatch(2);
    assertThat(stream.next().getRequestId()).isEqualTo(2);
    TestWorkStream ended = new TestWorkStream(server.channel);
    ended.lease(1, 1, LONG_WAIT);
    ended.completeBatch(2);
    assertThat(ended.next().getRequestId()).isEqualTo(2);
    ended.cancelStream();
    assertThat(ended.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.CANCELLED);

    long id = enqueue();

    TestWorkStream other = new TestWorkStream(server.channel);
    other.lease(7, 1, LONG_WAIT);
    WorkResponse leased = other.next();
    assertThat(leased.getRequestId()).isEqualTo(7);
    assertThat(leased.getLease().getJobsList()).extracting(Job::getId).containsExactly(id);
    assertThat(stream.answers).isEmpty();
  }

  @Test
  void aHalfCloseWithdrawsWaitingLeasesAndEndsTheStreamOnceAnswered() throws Exception {
    TestWorkStream stream = new TestWorkStream(server.channel);
    stream.lease(1, 1, LONG_WAIT);
    stream.requests.onCompleted();

    assertThat(stream.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
    assertThat(stream.answers).isEmpty();
    long id = enqueue();
    assertThat(state(id)).isEqualTo(JobState.JOB_STATE_PENDING);
  }

  @Test
  void aRequestIdInUseOrZeroEndsTheStreamNamingTheField() throws Exception {
    TestWorkStream reused = new TestWorkStream(server.channel);
    reused.lease(5, 1, LONG_WAIT);
    reused.lease(5, 1, LONG_WAIT);
    Status status = reused.end.get(10, TimeUnit.SECONDS);
    assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(status.getDescription()).contains("request_id");

    TestWorkStream zero = new TestWorkStream(server.channel);
    zero.completeBatch(0);
    Status zeroStatus = zero.end.get(10, TimeUnit.SECONDS);
    assertThat(zeroStatus.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(zeroStatus.getDescription()).contains("request_id");

    TestWorkStream empty = new TestWorkStream(server.channel);
    empty.requests.onNext(WorkRequest.newBuilder().setRequestId(1).build());
    assertThat(empty.end.get(10, TimeUnit.SECONDS).getCode())
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    // The coordinator keeps serving.
    long id = enqueue();
    TestWorkStream fine = new TestWorkStream(server.channel);
    fine.lease(1, 1, noWait());
    assertThat(fine.next().getLease().getJobsList()).extracting(Job::getId).containsExactly(id);
  }

  @Test
  void aStoppingCoordinatorEndsItsStreamsOnceTheirCompletionsAreAnswered() throws Exception {
    long id = enqueue();
    TestWorkStream stream = new TestWorkStream(server.channel);
    stream.lease(1, 1, noWait());
    Job running = stream.next().getLease().getJobs(0);
    stream.lease(2, 1, LONG_WAIT);

    CompletableFuture<Void> stopped = CompletableFuture.runAsync(server.coordinator::close);

    // Ended by the coordinator (OK), not cut off when its shutdown grace ran out.
    assertThat(stream.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
    stopped.get(20, TimeUnit.SECONDS);
    assertThat(stream.answers).allSatisfy(a -> assertThat(a.getLease().getJobsList()).isEmpty());
    assertThat(running.getId()).isEqualTo(id);
  }

  @Test
  void aStreamTheParseGuardClosedIsNoTroubleWhenTheCoordinatorStops() throws Exception {
    TestWorkStream waiting = new TestWorkStream(server.channel);
    waiting.lease(1, 1, LONG_WAIT);
    CompletableFuture<Status> garbled = new CompletableFuture<>();
    StreamObserver<byte[]> raw =
        io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
            server.channel.newCall(
                UnparseableRequestsTest.raw(WorkerServiceGrpc.getWorkMethod()),
                io.grpc.CallOptions.DEFAULT),
            new StreamObserver<byte[]>() {
              @Override
              public void onNext(byte[] value) {}

              @Override
              public void onError(Throwable t) {
                garbled.complete(Status.fromThrowable(t));
              }

              @Override
              public void onCompleted() {
                garbled.complete(Status.OK);
              }
            });
    raw.onNext(new byte[] {(byte) 0xff, 0x01, 0x02});
    assertThat(garbled.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);

    server.coordinator.close();

    assertThat(waiting.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
  }
}
