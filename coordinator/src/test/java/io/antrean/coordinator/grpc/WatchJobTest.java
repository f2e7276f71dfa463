package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WatchJobRequest;
import io.antrean.proto.v1.WatchJobResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** WatchJob over an in-process channel: snapshots per change, the end, errors, cancellation. */
@Timeout(30)
class WatchJobTest {
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

  private long enqueue() {
    return jobs.enqueue(
            EnqueueRequest.newBuilder()
                .setType("email.send")
                .setPayload(ByteString.copyFromUtf8("{}"))
                .build())
        .getJob()
        .getId();
  }

  private static WatchJobRequest watch(long id) {
    return WatchJobRequest.newBuilder().setId(id).build();
  }

  @Test
  void streamShowsPendingRunningSucceededForAJobLeasedAndCompleted() throws Exception {
    long id = enqueue();
    Collector seen = new Collector();
    JobServiceGrpc.newStub(server.channel)
        .withDeadlineAfter(20, TimeUnit.SECONDS)
        .watchJob(watch(id), seen);
    assertThat(seen.next().getState()).isEqualTo(JobState.JOB_STATE_PENDING);

    Job leased =
        workers
            .lease(
                LeaseRequest.newBuilder()
                    .setWorkerId("w1")
                    .setWait(com.google.protobuf.Duration.getDefaultInstance())
                    .build())
            .getJobs(0);
    Job running = seen.next();
    assertThat(running.getState()).isEqualTo(JobState.JOB_STATE_RUNNING);
    assertThat(running.getAttempts()).isEqualTo(1);
    assertThat(running.getLease().getWorkerId()).isEqualTo("w1");

    workers.complete(
        CompleteRequest.newBuilder()
            .setJobId(id)
            .setWorkerId("w1")
            .setFencingToken(leased.getLease().getFencingToken())
            .setLeaseId(leased.getLease().getLeaseId())
            .build());
    assertThat(seen.next().getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(seen.done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(seen.error).isNull();
    assertThat(seen.jobs).isEmpty();
    // The stream completes before the watcher is unregistered on the notifying thread.
    Awaitility.await("watcher removed")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> server.coordinator.jobWatchers().size() == 0);
  }

  @Test
  void finishedJobYieldsOneMessageAndTheStreamEnds() {
    long id = enqueue();
    jobs.cancelJob(CancelJobRequest.newBuilder().setId(id).build());
    List<WatchJobResponse> all = new ArrayList<>();
    jobs.watchJob(watch(id)).forEachRemaining(all::add);
    assertThat(all).hasSize(1);
    assertThat(all.get(0).getJob().getState()).isEqualTo(JobState.JOB_STATE_CANCELLED);
    assertThat(all.get(0).getJob().getHistoryList()).isEmpty();
  }

  @Test
  void cancellingARunningJobSendsTheCancelFlag() throws Exception {
    long id = enqueue();
    workers.lease(
        LeaseRequest.newBuilder()
            .setWorkerId("w1")
            .setWait(com.google.protobuf.Duration.getDefaultInstance())
            .build());
    Iterator<WatchJobResponse> stream = jobs.watchJob(watch(id));
    assertThat(stream.next().getJob().getCancelRequested()).isFalse();
    jobs.cancelJob(CancelJobRequest.newBuilder().setId(id).build());
    Job flagged = stream.next().getJob();
    assertThat(flagged.getState()).isEqualTo(JobState.JOB_STATE_RUNNING);
    assertThat(flagged.getCancelRequested()).isTrue();
  }

  @Test
  void unknownIdIsNotFoundAndZeroIdIsInvalidArgument() {
    assertThatThrownBy(() -> jobs.watchJob(watch(404)).hasNext())
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
    assertThatThrownBy(() -> jobs.watchJob(watch(0)).hasNext())
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    assertThat(server.coordinator.jobWatchers().size()).isZero();
  }

  @Test
  void cancelledClientCallRemovesTheWatcher() throws Exception {
    long id = enqueue();
    Collector seen = new Collector();
    Context.CancellableContext context = Context.current().withCancellation();
    context.run(() -> JobServiceGrpc.newStub(server.channel).watchJob(watch(id), seen));
    assertThat(seen.next().getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    assertThat(server.coordinator.jobWatchers().size()).isEqualTo(1);

    context.cancel(null);
    assertThat(seen.done.await(10, TimeUnit.SECONDS)).isTrue();
    Awaitility.await("watcher removed")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> server.coordinator.jobWatchers().size() == 0);
  }

  @Test
  void coordinatorShutdownEndsAWatchWithUnavailable() throws Exception {
    long id = enqueue();
    Collector seen = new Collector();
    JobServiceGrpc.newStub(server.channel).watchJob(watch(id), seen);
    seen.next();
    server.coordinator.jobWatchers().close();
    assertThat(seen.done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(Status.fromThrowable(seen.error).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
  }

  /** Collects a stream's snapshots and how it ended. */
  private static final class Collector implements StreamObserver<WatchJobResponse> {
    final BlockingQueue<Job> jobs = new LinkedBlockingQueue<>();
    final CountDownLatch done = new CountDownLatch(1);
    volatile Throwable error;

    Job next() throws InterruptedException {
      Job job = jobs.poll(10, TimeUnit.SECONDS);
      assertThat(job).as("a snapshot within 10 s").isNotNull();
      return job;
    }

    @Override
    public void onNext(WatchJobResponse value) {
      jobs.add(value.getJob());
    }

    @Override
    public void onError(Throwable t) {
      error = t;
      done.countDown();
    }

    @Override
    public void onCompleted() {
      done.countDown();
    }
  }
}
