package io.antrean.client;

import io.antrean.proto.v1.CreateScheduleRequest;
import io.antrean.proto.v1.DeleteScheduleRequest;
import io.antrean.proto.v1.GetScheduleRequest;
import io.antrean.proto.v1.ListSchedulesRequest;
import io.antrean.proto.v1.PauseScheduleRequest;
import io.antrean.proto.v1.ResumeScheduleRequest;
import io.antrean.proto.v1.Schedule;
import io.antrean.proto.v1.ScheduleDefinition;
import io.antrean.proto.v1.ScheduleServiceGrpc;
import io.antrean.proto.v1.UpdateScheduleRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link Schedules} over the coordinator's {@code antrean.v1.ScheduleService}, on the channel and
 * with the deadline of the {@link GrpcAntreanClient} that made it. Thread-safe.
 */
final class GrpcSchedules implements Schedules {
  private final ScheduleServiceGrpc.ScheduleServiceBlockingStub stub;
  private final Duration timeout;

  GrpcSchedules(ScheduleServiceGrpc.ScheduleServiceBlockingStub stub, Duration timeout) {
    this.stub = stub;
    this.timeout = timeout;
  }

  @Override
  public Schedule create(ScheduleDefinition definition) {
    CreateScheduleRequest request =
        CreateScheduleRequest.newBuilder().setSchedule(definition).build();
    return StatusTranslation.call(() -> deadlined().createSchedule(request)).getSchedule();
  }

  @Override
  public Schedule update(ScheduleDefinition definition) {
    UpdateScheduleRequest request =
        UpdateScheduleRequest.newBuilder().setSchedule(definition).build();
    return StatusTranslation.call(() -> deadlined().updateSchedule(request)).getSchedule();
  }

  @Override
  public void delete(String name) {
    DeleteScheduleRequest request = DeleteScheduleRequest.newBuilder().setName(name).build();
    StatusTranslation.call(() -> deadlined().deleteSchedule(request));
  }

  @Override
  public Schedule get(String name) {
    GetScheduleRequest request = GetScheduleRequest.newBuilder().setName(name).build();
    return StatusTranslation.call(() -> deadlined().getSchedule(request)).getSchedule();
  }

  @Override
  public List<Schedule> list() {
    return StatusTranslation.call(
            () -> deadlined().listSchedules(ListSchedulesRequest.getDefaultInstance()))
        .getSchedulesList();
  }

  @Override
  public Schedule pause(String name) {
    PauseScheduleRequest request = PauseScheduleRequest.newBuilder().setName(name).build();
    return StatusTranslation.call(() -> deadlined().pauseSchedule(request)).getSchedule();
  }

  @Override
  public Schedule resume(String name) {
    ResumeScheduleRequest request = ResumeScheduleRequest.newBuilder().setName(name).build();
    return StatusTranslation.call(() -> deadlined().resumeSchedule(request)).getSchedule();
  }

  private ScheduleServiceGrpc.ScheduleServiceBlockingStub deadlined() {
    return stub.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }
}
