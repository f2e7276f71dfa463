package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.ScheduleServiceCalls;
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
import io.antrean.proto.v1.ScheduleServiceGrpc;
import io.antrean.proto.v1.UpdateScheduleRequest;
import io.antrean.proto.v1.UpdateScheduleResponse;
import io.grpc.stub.StreamObserver;

/** The ScheduleService RPCs, answered by {@link ScheduleServiceCalls}. */
public final class GrpcScheduleService extends ScheduleServiceGrpc.ScheduleServiceImplBase {
  private final ScheduleServiceCalls calls;

  public GrpcScheduleService(ScheduleServiceCalls calls) {
    this.calls = calls;
  }

  @Override
  public void createSchedule(
      CreateScheduleRequest request, StreamObserver<CreateScheduleResponse> observer) {
    Unary.answer(observer, () -> calls.createSchedule(request));
  }

  @Override
  public void updateSchedule(
      UpdateScheduleRequest request, StreamObserver<UpdateScheduleResponse> observer) {
    Unary.answer(observer, () -> calls.updateSchedule(request));
  }

  @Override
  public void deleteSchedule(
      DeleteScheduleRequest request, StreamObserver<DeleteScheduleResponse> observer) {
    Unary.answer(observer, () -> calls.deleteSchedule(request));
  }

  @Override
  public void getSchedule(
      GetScheduleRequest request, StreamObserver<GetScheduleResponse> observer) {
    Unary.answer(observer, () -> calls.getSchedule(request));
  }

  @Override
  public void listSchedules(
      ListSchedulesRequest request, StreamObserver<ListSchedulesResponse> observer) {
    Unary.answer(observer, () -> calls.listSchedules(request));
  }

  @Override
  public void pauseSchedule(
      PauseScheduleRequest request, StreamObserver<PauseScheduleResponse> observer) {
    Unary.answer(observer, () -> calls.pauseSchedule(request));
  }

  @Override
  public void resumeSchedule(
      ResumeScheduleRequest request, StreamObserver<ResumeScheduleResponse> observer) {
    Unary.answer(observer, () -> calls.resumeSchedule(request));
  }
}
