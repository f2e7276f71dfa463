package io.antrean.coordinator.grpc;

import io.antrean.coordinator.core.DeadLetters;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import io.grpc.stub.StreamObserver;

/** The operator RPCs over the dead-letter queue, answered by {@link AdminServiceCalls}. */
public final class GrpcAdminService extends AdminServiceGrpc.AdminServiceImplBase {
  private final AdminServiceCalls calls;

  public GrpcAdminService(DeadLetters deadLetters) {
    this.calls = new AdminServiceCalls(deadLetters);
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
}
