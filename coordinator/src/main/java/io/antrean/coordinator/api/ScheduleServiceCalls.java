package io.antrean.coordinator.api;

import io.antrean.coordinator.core.Schedules;
import io.antrean.proto.v1.CreateScheduleRequest;
import io.antrean.proto.v1.CreateScheduleResponse;
import io.antrean.proto.v1.DeleteScheduleRequest;
import io.antrean.proto.v1.DeleteScheduleResponse;
import io.antrean.proto.v1.GetScheduleRequest;
import io.antrean.proto.v1.GetScheduleResponse;
import io.antrean.proto.v1.ListSchedulesRequest;
import io.antrean.proto.v1.ListSchedulesResponse;
import io.antrean.proto.v1.PauseScheduleRequest;
import io.antrean.proto.v1.PauseScheduleResponse;
import io.antrean.proto.v1.ResumeScheduleRequest;
import io.antrean.proto.v1.ResumeScheduleResponse;
import io.antrean.proto.v1.UpdateScheduleRequest;
import io.antrean.proto.v1.UpdateScheduleResponse;

/**
 * The ScheduleService's calls without a transport, shared by the gRPC service and the HTTP/JSON
 * API. Errors are the core's domain exceptions. Thread-safe.
 */
public final class ScheduleServiceCalls {
  private static final String PREFIX = "schedule.";

  private final Schedules schedules;

  public ScheduleServiceCalls(Schedules schedules) {
    this.schedules = schedules;
  }

  public CreateScheduleResponse createSchedule(CreateScheduleRequest request) {
    return CreateScheduleResponse.newBuilder()
        .setSchedule(
            ScheduleMapper.schedule(
                schedules.create(ScheduleMapper.command(request.getSchedule(), PREFIX))))
        .build();
  }

  public UpdateScheduleResponse updateSchedule(UpdateScheduleRequest request) {
    return UpdateScheduleResponse.newBuilder()
        .setSchedule(
            ScheduleMapper.schedule(
                schedules.update(ScheduleMapper.command(request.getSchedule(), PREFIX))))
        .build();
  }

  public DeleteScheduleResponse deleteSchedule(DeleteScheduleRequest request) {
    schedules.delete(request.getName());
    return DeleteScheduleResponse.getDefaultInstance();
  }

  public GetScheduleResponse getSchedule(GetScheduleRequest request) {
    return GetScheduleResponse.newBuilder()
        .setSchedule(ScheduleMapper.schedule(schedules.get(request.getName())))
        .build();
  }

  public ListSchedulesResponse listSchedules(ListSchedulesRequest request) {
    ListSchedulesResponse.Builder b = ListSchedulesResponse.newBuilder();
    schedules.list().forEach(s -> b.addSchedules(ScheduleMapper.schedule(s)));
    return b.build();
  }

  public PauseScheduleResponse pauseSchedule(PauseScheduleRequest request) {
    return PauseScheduleResponse.newBuilder()
        .setSchedule(ScheduleMapper.schedule(schedules.pause(request.getName())))
        .build();
  }

  public ResumeScheduleResponse resumeSchedule(ResumeScheduleRequest request) {
    return ResumeScheduleResponse.newBuilder()
        .setSchedule(ScheduleMapper.schedule(schedules.resume(request.getName())))
        .build();
  }
}
