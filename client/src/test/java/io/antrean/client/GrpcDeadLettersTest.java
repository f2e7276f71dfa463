package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.Timestamp;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class GrpcDeadLettersTest {
  private static final DeadLetterFilter MAIL =
      DeadLetterFilter.newBuilder()
          .setQueue("mail")
          .setErrorContains("timeout")
          .setFailedAfter(Timestamp.newBuilder().setSeconds(1_800_000_000L))
          .build();

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
  void listPassesTheRequestThroughAndReturnsThePage() {
    ListDeadLettersResponse page =
        ListDeadLettersResponse.newBuilder()
            .addJobs(Job.newBuilder().setId(4).setState(JobState.JOB_STATE_FAILED))
            .setNextPageToken("p2")
            .build();
    admin.listDeadLetters = r -> page;
    ListDeadLettersRequest request =
        ListDeadLettersRequest.newBuilder().setFilter(MAIL).setPageSize(10).build();

    assertThat(client.deadLetters().list(request)).isEqualTo(page);
    assertThat(admin.requestsOf(ListDeadLettersRequest.class)).containsExactly(request);
  }

  @Test
  void listOfFilterAndPageBuildsTheRequestWithANullTokenAsTheFirstPage() {
    client.deadLetters().list(MAIL, 50, "p2");
    client.deadLetters().list(DeadLetterFilter.getDefaultInstance(), 0, null);

    assertThat(admin.requestsOf(ListDeadLettersRequest.class))
        .containsExactly(
            ListDeadLettersRequest.newBuilder()
                .setFilter(MAIL)
                .setPageSize(50)
                .setPageToken("p2")
                .build(),
            ListDeadLettersRequest.newBuilder()
                .setFilter(DeadLetterFilter.getDefaultInstance())
                .build());
  }

  @Test
  void getAsksForTheIdAndUnwrapsTheJob() {
    Job job = Job.newBuilder().setId(12).setState(JobState.JOB_STATE_FAILED).build();
    admin.getDeadLetter = r -> GetDeadLetterResponse.newBuilder().setJob(job).build();

    assertThat(client.deadLetters().get(12)).isEqualTo(job);
    assertThat(admin.requestsOf(GetDeadLetterRequest.class).get(0).getId()).isEqualTo(12);
  }

  @Test
  void redriveOfEachSelectionSendsExactlyThatSelection() {
    DeadLetters deadLetters = client.deadLetters();

    deadLetters.redrive(DeadLetterSelection.ofIds(3, 4));
    deadLetters.redrive(DeadLetterSelection.matching(MAIL));
    deadLetters.redrive(DeadLetterSelection.all(), 25.5, 500);

    assertThat(admin.requestsOf(RedriveDeadLettersRequest.class))
        .containsExactly(
            RedriveDeadLettersRequest.newBuilder().addIds(3).addIds(4).build(),
            RedriveDeadLettersRequest.newBuilder().setFilter(MAIL).build(),
            RedriveDeadLettersRequest.newBuilder()
                .setAll(true)
                .setRatePerSecond(25.5)
                .setLimit(500)
                .build());
  }

  @Test
  void redriveReturnsRedrivenAndSkippedIds() {
    RedriveDeadLettersResponse answer =
        RedriveDeadLettersResponse.newBuilder()
            .addRedrivenIds(3)
            .addSkippedIds(99)
            .setLastRunAt(Timestamp.newBuilder().setSeconds(1_800_000_001L))
            .build();
    admin.redriveDeadLetters = r -> answer;

    assertThat(client.deadLetters().redrive(DeadLetterSelection.ofIds(3, 99))).isEqualTo(answer);
  }

  @Test
  void redriveWithANonPositiveRateOrLimitFailsBeforeAnyCall() {
    DeadLetters deadLetters = client.deadLetters();

    assertThatThrownBy(() -> deadLetters.redrive(DeadLetterSelection.all(), 0, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> deadLetters.redrive(DeadLetterSelection.all(), Double.NaN, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> deadLetters.redrive(DeadLetterSelection.all(), 10, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(admin.requests).isEmpty();
  }

  @Test
  void purgeSendsTheSelectionAndReturnsTheCount() {
    admin.purgeDeadLetters = r -> PurgeDeadLettersResponse.newBuilder().setPurged(7).build();

    assertThat(client.deadLetters().purge(DeadLetterSelection.matching(MAIL))).isEqualTo(7);
    assertThat(admin.requestsOf(PurgeDeadLettersRequest.class))
        .containsExactly(PurgeDeadLettersRequest.newBuilder().setFilter(MAIL).build());
  }

  @Test
  void everyAdminCallCarriesTheDeadlineOfTheClientItCameFrom() {
    admin.getDeadLetter = r -> GetDeadLetterResponse.getDefaultInstance();
    DeadLetters slow = client.deadLetters();
    DeadLetters quick = client.withTimeout(Duration.ofMillis(1500)).deadLetters();

    slow.list(ListDeadLettersRequest.getDefaultInstance());
    slow.get(1);
    slow.redrive(DeadLetterSelection.all());
    slow.purge(DeadLetterSelection.all());
    quick.get(1);

    assertThat(admin.deadlines).hasSize(5);
    admin.deadlines.subList(0, 4).forEach(d -> assertRemaining(d, Duration.ofSeconds(5)));
    assertRemaining(admin.deadlines.get(4), Duration.ofMillis(1500));
  }

  @Test
  void adminCallsGoThroughTheSameTable() {
    admin.getDeadLetter =
        r -> {
          throw Status.NOT_FOUND.withDescription("job 9 not found").asRuntimeException();
        };
    admin.redriveDeadLetters =
        r -> {
          throw StatusProto.toStatusRuntimeException(
              com.google.rpc.Status.newBuilder()
                  .setCode(Code.INVALID_ARGUMENT_VALUE)
                  .setMessage("bad rate")
                  .addDetails(
                      Any.pack(
                          BadRequest.newBuilder()
                              .addFieldViolations(violation("rate_per_second", "at most 100000"))
                              .build()))
                  .build());
        };
    admin.purgeDeadLetters =
        r -> {
          throw Status.PERMISSION_DENIED.withDescription("admin only").asRuntimeException();
        };
    DeadLetters deadLetters = client.deadLetters();

    assertThat(catchThrowableOfType(JobNotFoundException.class, () -> deadLetters.get(9)))
        .hasMessage("job 9 not found");
    assertThat(
            catchThrowableOfType(
                    InvalidArgumentException.class,
                    () -> deadLetters.redrive(DeadLetterSelection.all()))
                .fieldViolations())
        .containsExactly(new FieldViolation("rate_per_second", "at most 100000"));
    assertThat(
            catchThrowableOfType(
                    AntreanException.class, () -> deadLetters.purge(DeadLetterSelection.all()))
                .statusCode())
        .isEqualTo(Status.Code.PERMISSION_DENIED);
  }

  private static BadRequest.FieldViolation violation(String field, String description) {
    return BadRequest.FieldViolation.newBuilder()
        .setField(field)
        .setDescription(description)
        .build();
  }

  private static void assertRemaining(Deadline deadline, Duration timeout) {
    assertThat(deadline).isNotNull();
    assertThat(deadline.timeRemaining(TimeUnit.MILLISECONDS))
        .isLessThanOrEqualTo(timeout.toMillis())
        .isGreaterThan(timeout.toMillis() - 1000);
  }
}
