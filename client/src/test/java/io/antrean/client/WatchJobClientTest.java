package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.Lease;
import io.antrean.proto.v1.WatchJobRequest;
import io.antrean.proto.v1.WatchJobResponse;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class WatchJobClientTest {
  private final FakeJobService service = new FakeJobService();
  private final InProcessCoordinator coordinator = InProcessCoordinator.start(service);
  private final AntreanClient client = coordinator.client(Duration.ofSeconds(5));

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    coordinator.close();
  }

  static Job job(long id, JobState state, int attempts) {
    Job.Builder b = Job.newBuilder().setId(id).setType("email.send").setState(state);
    b.setAttempts(attempts);
    if (state == JobState.JOB_STATE_RUNNING) {
      b.setLease(Lease.newBuilder().setWorkerId("w1"));
    }
    return b.build();
  }

  @Test
  void watchYieldsEverySnapshotUntilTheTerminalOne() {
    service.watchJob =
        FakeJobService.streaming(
            job(7, JobState.JOB_STATE_PENDING, 0),
            job(7, JobState.JOB_STATE_RUNNING, 1),
            job(7, JobState.JOB_STATE_SUCCEEDED, 1));

    try (JobWatch watch = client.watchJob(7, Duration.ofSeconds(5))) {
      assertThat(watch.stream().map(Job::getState).toList())
          .containsExactly(
              JobState.JOB_STATE_PENDING, JobState.JOB_STATE_RUNNING, JobState.JOB_STATE_SUCCEEDED);
    }
    assertThat(service.requestsOf(WatchJobRequest.class).get(0).getId()).isEqualTo(7);
    assertThat(service.deadlines.get(0)).isNotNull();
  }

  @Test
  void unknownJobIsJobNotFoundFromTheIterator() {
    JobWatch watch = client.watchJob(404, Duration.ofSeconds(5));
    assertThatThrownBy(watch::hasNext).isInstanceOf(JobNotFoundException.class);
    assertThatThrownBy(() -> client.awaitTerminal(404, Duration.ofSeconds(5)))
        .isInstanceOf(JobNotFoundException.class);
  }

  @Test
  void awaitTerminalReturnsTheFinalJob() {
    service.watchJob =
        FakeJobService.streaming(
            job(8, JobState.JOB_STATE_RUNNING, 1), job(8, JobState.JOB_STATE_FAILED, 3));

    Job last = client.awaitTerminal(8, Duration.ofSeconds(5));

    assertThat(last.getState()).isEqualTo(JobState.JOB_STATE_FAILED);
    assertThat(last.getAttempts()).isEqualTo(3);
  }

  @Test
  void awaitTerminalThatRunsOutOfTimeThrowsAwaitTimeoutWithTheLastSnapshot() {
    service.watchJob =
        (r, observer) ->
            observer.onNext(
                WatchJobResponse.newBuilder()
                    .setJob(job(9, JobState.JOB_STATE_RUNNING, 1))
                    .build());

    assertThatThrownBy(() -> client.awaitTerminal(9, Duration.ofMillis(300)))
        .isInstanceOfSatisfying(
            AwaitTimeoutException.class,
            e -> {
              assertThat(e.jobId()).isEqualTo(9);
              assertThat(e.lastSeen()).map(Job::getState).contains(JobState.JOB_STATE_RUNNING);
              assertThat(e.statusCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
              assertThat(e.isRetryable()).isTrue();
            });
  }

  @Test
  void awaitTerminalWatchesAgainAfterTheCoordinatorStops() {
    AtomicInteger calls = new AtomicInteger();
    service.watchJob =
        (r, observer) -> {
          if (calls.incrementAndGet() == 1) {
            observer.onNext(
                WatchJobResponse.newBuilder()
                    .setJob(job(5, JobState.JOB_STATE_RUNNING, 1))
                    .build());
            observer.onError(Status.UNAVAILABLE.withDescription("stopping").asRuntimeException());
          } else {
            FakeJobService.streaming(job(5, JobState.JOB_STATE_SUCCEEDED, 1)).handle(r, observer);
          }
        };

    Job last = client.awaitTerminal(5, Duration.ofSeconds(10));

    assertThat(last.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(calls.get()).isEqualTo(2);
  }

  @Test
  void closingAWatchCancelsTheCall() throws Exception {
    CountDownLatch cancelled = new CountDownLatch(1);
    service.watchJob =
        (r, observer) -> {
          ServerCallStreamObserver<WatchJobResponse> call =
              (ServerCallStreamObserver<WatchJobResponse>) observer;
          call.setOnCancelHandler(cancelled::countDown);
          call.onNext(
              WatchJobResponse.newBuilder().setJob(job(3, JobState.JOB_STATE_PENDING, 0)).build());
        };

    JobWatch watch = client.watchJob(3, Duration.ofSeconds(10));
    assertThat(watch.next().getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    watch.close();

    assertThat(cancelled.await(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void nonPositiveTimeoutIsRefused() {
    assertThatThrownBy(() -> client.watchJob(1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> client.awaitTerminal(1, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
