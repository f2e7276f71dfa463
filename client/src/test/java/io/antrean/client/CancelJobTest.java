package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.CancelJobResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.grpc.Status;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** CancelJob through the client, and the FAILED_PRECONDITION reasons of the new RPCs. */
@Timeout(10)
class CancelJobTest {
  private final FakeJobService service = new FakeJobService();
  private final FakeAdminService admin = new FakeAdminService();
  private InProcessCoordinator coordinator;
  private AntreanClient client;

  @BeforeEach
  void start() {
    coordinator = InProcessCoordinator.start(service, admin);
    client = coordinator.client(Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    coordinator.close();
  }

  @Test
  void cancelJobAsksForTheIdAndReturnsTheJobAsLeft() {
    Job running =
        Job.newBuilder()
            .setId(8)
            .setState(JobState.JOB_STATE_RUNNING)
            .setCancelRequested(true)
            .build();
    service.cancelJob = r -> CancelJobResponse.newBuilder().setJob(running).build();

    assertThat(client.cancelJob(8)).isEqualTo(running);
    assertThat(service.requestsOf(CancelJobRequest.class))
        .containsExactly(CancelJobRequest.newBuilder().setId(8).build());
  }

  @Test
  void cancelJobOfAnUnknownIdIsJobNotFound() {
    JobNotFoundException e =
        catchThrowableOfType(JobNotFoundException.class, () -> client.cancelJob(404));

    assertThat(e).hasMessage("job 404 not found");
  }

  @Test
  void cancelJobCarriesTheClientsDeadline() {
    service.cancelJob = r -> CancelJobResponse.getDefaultInstance();

    client.withTimeout(Duration.ofMillis(1500)).cancelJob(1);

    assertThat(service.deadlines.get(0).timeRemaining(java.util.concurrent.TimeUnit.MILLISECONDS))
        .isBetween(1L, 1500L);
  }

  @Test
  void cancellingAFinishedJobIsAFailedPreconditionWithReasonJobFinished() {
    service.cancelJob =
        r -> {
          throw FakeJobService.failure(
              Status.Code.FAILED_PRECONDITION, "job 5 already SUCCEEDED", "JOB_FINISHED");
        };

    FailedPreconditionException e =
        catchThrowableOfType(FailedPreconditionException.class, () -> client.cancelJob(5));

    assertThat(e.reason()).contains(FailedPreconditionException.JOB_FINISHED);
    assertThat(e.hasReason(FailedPreconditionException.JOB_FINISHED)).isTrue();
    assertThat(e.hasReason(FailedPreconditionException.NOT_DEAD_LETTERED)).isFalse();
    assertThat(e.description()).isEqualTo("job 5 already SUCCEEDED");
    assertThat(e.isRetryable()).isFalse();
  }

  @Test
  void gettingALiveJobAsADeadLetterIsAFailedPreconditionWithReasonNotDeadLettered() {
    admin.getDeadLetter =
        r -> {
          throw FakeJobService.failure(
              Status.Code.FAILED_PRECONDITION, "job 6 is RUNNING", "NOT_DEAD_LETTERED");
        };

    FailedPreconditionException e =
        catchThrowableOfType(FailedPreconditionException.class, () -> client.deadLetters().get(6));

    assertThat(e.hasReason(FailedPreconditionException.NOT_DEAD_LETTERED)).isTrue();
    assertThat(e.statusCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
  }

  @Test
  void failedPreconditionWithoutErrorInfoHasNoReason() {
    service.cancelJob =
        r -> {
          throw Status.FAILED_PRECONDITION.withDescription("no").asRuntimeException();
        };

    FailedPreconditionException e =
        catchThrowableOfType(FailedPreconditionException.class, () -> client.cancelJob(5));

    assertThat(e.reason()).isEmpty();
    assertThat(e.hasReason(FailedPreconditionException.JOB_FINISHED)).isFalse();
  }
}
