package io.antrean.coordinator.http;

import io.antrean.coordinator.api.ScheduleServiceCalls;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.proto.v1.CreateScheduleRequest;
import io.antrean.proto.v1.CreateScheduleResponse;
import io.antrean.proto.v1.DeleteScheduleRequest;
import io.antrean.proto.v1.GetScheduleRequest;
import io.antrean.proto.v1.ListSchedulesRequest;
import io.antrean.proto.v1.PauseScheduleRequest;
import io.antrean.proto.v1.ResumeScheduleRequest;
import io.antrean.proto.v1.ScheduleDefinition;
import io.antrean.proto.v1.UpdateScheduleRequest;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The schedule routes, each answered by one {@link ScheduleServiceCalls} call with the same
 * messages as the gRPC ScheduleService:
 *
 * <ul>
 *   <li>{@code GET /v1/schedules}: ListSchedulesResponse
 *   <li>{@code POST /v1/schedules}: the body is a ScheduleDefinition; 201 with {@code Location:
 *       /v1/schedules/{name}} and the CreateScheduleResponse
 *   <li>{@code GET /v1/schedules/{name}}: GetScheduleResponse
 *   <li>{@code PUT /v1/schedules/{name}}: the body is a ScheduleDefinition (its name, if given,
 *       must be the path's); UpdateScheduleResponse
 *   <li>{@code DELETE /v1/schedules/{name}}: DeleteScheduleResponse ({@code {}})
 *   <li>{@code POST /v1/schedules/{name}:pause} and {@code :resume}: the
 *       Pause/ResumeScheduleResponse
 * </ul>
 */
final class ScheduleRoutes {
  private final ScheduleServiceCalls calls;

  ScheduleRoutes(ScheduleServiceCalls calls) {
    this.calls = calls;
  }

  void addTo(Router router) {
    router
        .add("GET", "/v1/schedules", this::list)
        .add("POST", "/v1/schedules", this::create)
        .add("GET", "/v1/schedules/{name}", this::get)
        .add("PUT", "/v1/schedules/{name}", this::update)
        .add("DELETE", "/v1/schedules/{name}", this::delete)
        .add("POST", "/v1/schedules/{name}:pause", this::pause)
        .add("POST", "/v1/schedules/{name}:resume", this::resume);
  }

  private void list(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(200, calls.listSchedules(ListSchedulesRequest.getDefaultInstance()));
  }

  private void create(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    ScheduleDefinition definition = call.json(ScheduleDefinition.newBuilder()).build();
    CreateScheduleResponse response =
        calls.createSchedule(CreateScheduleRequest.newBuilder().setSchedule(definition).build());
    call.created("/v1/schedules/" + definition.getName(), response);
  }

  private void get(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200, calls.getSchedule(GetScheduleRequest.newBuilder().setName(call.pathParam()).build()));
  }

  private void update(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    ScheduleDefinition.Builder definition = call.json(ScheduleDefinition.newBuilder());
    if (!definition.getName().isEmpty() && !definition.getName().equals(call.pathParam())) {
      throw new ValidationException(
          List.of(new FieldViolation("name", "the body's name must be the path's")));
    }
    definition.setName(call.pathParam());
    call.respond(
        200,
        calls.updateSchedule(UpdateScheduleRequest.newBuilder().setSchedule(definition).build()));
  }

  private void delete(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200,
        calls.deleteSchedule(DeleteScheduleRequest.newBuilder().setName(call.pathParam()).build()));
  }

  private void pause(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200,
        calls.pauseSchedule(PauseScheduleRequest.newBuilder().setName(call.pathParam()).build()));
  }

  private void resume(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200,
        calls.resumeSchedule(ResumeScheduleRequest.newBuilder().setName(call.pathParam()).build()));
  }
}
