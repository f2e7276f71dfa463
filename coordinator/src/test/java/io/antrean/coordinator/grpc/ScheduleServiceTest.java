package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import io.antrean.proto.v1.CreateScheduleRequest;
import io.antrean.proto.v1.DeleteScheduleRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetScheduleRequest;
import io.antrean.proto.v1.ListSchedulesRequest;
import io.antrean.proto.v1.MisfirePolicy;
import io.antrean.proto.v1.OverlapPolicy;
import io.antrean.proto.v1.PauseScheduleRequest;
import io.antrean.proto.v1.ResumeScheduleRequest;
import io.antrean.proto.v1.Schedule;
import io.antrean.proto.v1.ScheduleDefinition;
import io.antrean.proto.v1.ScheduleServiceGrpc;
import io.antrean.proto.v1.UniqueConflict;
import io.antrean.proto.v1.UpdateScheduleRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The ScheduleService and Enqueue's unique key over gRPC, in process, on a SQLite store. */
@Timeout(30)
class ScheduleServiceTest {
  @TempDir Path dir;
  private InProcessCoordinator server;
  private ScheduleServiceGrpc.ScheduleServiceBlockingStub schedules;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.DIRECT, "report");
    schedules = server.schedules();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static ScheduleDefinition.Builder nightly() {
    return ScheduleDefinition.newBuilder()
        .setName("nightly")
        .setCron("0 3 * * *")
        .setTimeZone("Europe/Berlin")
        .setTemplate(
            EnqueueRequest.newBuilder()
                .setQueue("reports")
                .setType("report")
                .setPayload(ByteString.copyFromUtf8("{}")));
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

  private StatusRuntimeException create(ScheduleDefinition.Builder d) {
    return catchThrowableOfType(
        StatusRuntimeException.class,
        () -> schedules.createSchedule(CreateScheduleRequest.newBuilder().setSchedule(d).build()));
  }

  private String violatedField(ScheduleDefinition.Builder d) throws Exception {
    StatusRuntimeException e = create(d);
    assertThat(e).as("refused: %s", d).isNotNull();
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    return detail(e, BadRequest.class).getFieldViolations(0).getField();
  }

  @Test
  void createdScheduleShowsItsDefinitionAndNextFireTimes() {
    Schedule s =
        schedules
            .createSchedule(CreateScheduleRequest.newBuilder().setSchedule(nightly()).build())
            .getSchedule();

    assertThat(s.getDefinition().getCron()).isEqualTo("0 3 * * *");
    assertThat(s.getDefinition().getMisfirePolicy()).isEqualTo(MisfirePolicy.MISFIRE_POLICY_SKIP);
    assertThat(s.getDefinition().getOverlapPolicy()).isEqualTo(OverlapPolicy.OVERLAP_POLICY_ALLOW);
    assertThat(s.getDefinition().getTemplate().getRetryPolicy().getMaxAttempts()).isEqualTo(5);
    assertThat(s.getUpcomingList()).hasSize(5);
    assertThat(s.getUpcoming(0)).isEqualTo(s.getNextFireAt());
    assertThat(
            Durations.toHours(
                com.google.protobuf.util.Timestamps.between(s.getUpcoming(0), s.getUpcoming(1))))
        .isBetween(23L, 25L);
    assertThat(
            schedules.listSchedules(ListSchedulesRequest.getDefaultInstance()).getSchedulesList())
        .extracting(x -> x.getDefinition().getName())
        .containsExactly("nightly");
  }

  @Test
  void badDefinitionsAreInvalidArgumentNamingTheField() throws Exception {
    assertThat(violatedField(nightly().setCron("61 * * * *"))).isEqualTo("schedule.cron");
    assertThat(violatedField(nightly().setTimeZone("Mars/Olympus")))
        .isEqualTo("schedule.time_zone");
    assertThat(violatedField(nightly().clearCron().setTimeZone("").setInterval(Durations.ZERO)))
        .isEqualTo("schedule.interval");
    assertThat(
            violatedField(
                nightly().clearCron().setTimeZone("").setInterval(Durations.fromSeconds(-5))))
        .isEqualTo("schedule.interval");
    assertThat(violatedField(nightly().setName("no spaces"))).isEqualTo("schedule.name");
    assertThat(violatedField(nightly().setName(""))).isEqualTo("schedule.name");
    assertThat(violatedField(nightly().setTemplate(EnqueueRequest.newBuilder().setType("fax"))))
        .isEqualTo("schedule.template.type");
    assertThat(
            violatedField(
                nightly()
                    .setTemplate(
                        EnqueueRequest.newBuilder().setType("report").setIdempotencyKey("k"))))
        .isEqualTo("schedule.template.idempotency_key");
  }

  @Test
  void unknownAndTakenNamesHaveTheirOwnCodes() throws Exception {
    schedules.createSchedule(CreateScheduleRequest.newBuilder().setSchedule(nightly()).build());

    StatusRuntimeException taken = create(nightly());
    StatusRuntimeException unknown =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () -> schedules.getSchedule(GetScheduleRequest.newBuilder().setName("x").build()));

    assertThat(taken.getStatus().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS);
    assertThat(detail(taken, ErrorInfo.class).getReason()).isEqualTo("SCHEDULE_EXISTS");
    assertThat(unknown.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(detail(unknown, ErrorInfo.class).getReason()).isEqualTo("SCHEDULE_NOT_FOUND");
  }

  @Test
  void updatePauseResumeAndDeleteRoundTrip() {
    schedules.createSchedule(CreateScheduleRequest.newBuilder().setSchedule(nightly()).build());

    Schedule updated =
        schedules
            .updateSchedule(
                UpdateScheduleRequest.newBuilder()
                    .setSchedule(
                        nightly()
                            .clearCron()
                            .setTimeZone("")
                            .setInterval(Durations.fromSeconds(90)))
                    .build())
            .getSchedule();
    Schedule paused =
        schedules
            .pauseSchedule(PauseScheduleRequest.newBuilder().setName("nightly").build())
            .getSchedule();
    Schedule resumed =
        schedules
            .resumeSchedule(ResumeScheduleRequest.newBuilder().setName("nightly").build())
            .getSchedule();
    schedules.deleteSchedule(DeleteScheduleRequest.newBuilder().setName("nightly").build());

    assertThat(updated.getDefinition().getInterval()).isEqualTo(Durations.fromSeconds(90));
    assertThat(paused.getPaused()).isTrue();
    assertThat(paused.hasPausedAt()).isTrue();
    assertThat(resumed.getPaused()).isFalse();
    assertThat(
            schedules.listSchedules(ListSchedulesRequest.getDefaultInstance()).getSchedulesList())
        .isEmpty();
  }

  @Test
  void uniqueKeyClashIsAlreadyExistsWithTheActiveJobOrReturnsIt() throws Exception {
    EnqueueRequest.Builder sync =
        EnqueueRequest.newBuilder().setType("report").setUniqueKey("customer-7");
    long first = server.jobs().enqueue(sync.build()).getJob().getId();

    StatusRuntimeException refused =
        catchThrowableOfType(
            StatusRuntimeException.class, () -> server.jobs().enqueue(sync.build()));
    EnqueueResponse returned =
        server
            .jobs()
            .enqueue(
                sync.setOnUniqueConflict(UniqueConflict.UNIQUE_CONFLICT_RETURN_EXISTING).build());

    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS);
    ErrorInfo info = detail(refused, ErrorInfo.class);
    assertThat(info.getReason()).isEqualTo("UNIQUE_KEY_ACTIVE");
    assertThat(info.getMetadataMap()).containsEntry("existing_job_id", Long.toString(first));
    assertThat(returned.getDeduplicated()).isTrue();
    assertThat(returned.getJob().getId()).isEqualTo(first);
    StatusRuntimeException both =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () -> server.jobs().enqueue(sync.setIdempotencyKey("k").build()));
    assertThat(detail(both, BadRequest.class).getFieldViolations(0).getField())
        .isEqualTo("unique_key");
  }
}
