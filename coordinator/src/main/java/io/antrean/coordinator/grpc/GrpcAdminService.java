package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.AdminServiceCalls;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.GetQueueRatesRequest;
import io.antrean.proto.v1.GetQueueRatesResponse;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.ListWorkersRequest;
import io.antrean.proto.v1.ListWorkersResponse;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.PauseQueueResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.ResumeQueueResponse;
import io.grpc.stub.StreamObserver;

/**
 * The operator RPCs over the dead-letter queue, queue control, workers and rates, answered by
 * {@link AdminServiceCalls}.
 */
public final class GrpcAdminService extends AdminServiceGrpc.AdminServiceImplBase {
  private final AdminServiceCalls calls;

  public GrpcAdminService(AdminServiceCalls calls) {
    this.calls = calls;
  }

  @Override
  public void listWorkers(
      ListWorkersRequest request, StreamObserver<ListWorkersResponse> observer) {
    Unary.answer(observer, () -> calls.listWorkers(request));
  }

  @Override
  public void getQueueRates(
      GetQueueRatesRequest request, StreamObserver<GetQueueRatesResponse> observer) {
    Unary.answer(observer, () -> calls.getQueueRates(request));
  }

  @Override
  public void listDeadLetters(
      ListDeadLettersRequest request, StreamObserver<ListDeadLettersResponse> observer) {
    Unary.answer(observer, () -> calls.listDeadLetters(request));
  }

  @Override
  public void getDeadLetter(
      GetDeadLetterRequest request, StreamObserver<GetDeadLetterResponse> observer) {
    Unary.answer(observer, () -> calls.getDeadLetter(request));
  }

  @Override
  public void redriveDeadLetters(
      RedriveDeadLettersRequest request, StreamObserver<RedriveDeadLettersResponse> observer) {
    Unary.answer(observer, () -> calls.redriveDeadLetters(request));
  }

  @Override
  public void purgeDeadLetters(
      PurgeDeadLettersRequest request, StreamObserver<PurgeDeadLettersResponse> observer) {
    Unary.answer(observer, () -> calls.purgeDeadLetters(request));
  }

  @Override
  public void listQueues(ListQueuesRequest request, StreamObserver<ListQueuesResponse> observer) {
    Unary.answer(observer, () -> calls.listQueues(request));
  }

  @Override
  public void pauseQueue(PauseQueueRequest request, StreamObserver<PauseQueueResponse> observer) {
    Unary.answer(observer, () -> calls.pauseQueue(request));
  }

  @Override
  public void resumeQueue(
      ResumeQueueRequest request, StreamObserver<ResumeQueueResponse> observer) {
    Unary.answer(observer, () -> calls.resumeQueue(request));
  }
}
