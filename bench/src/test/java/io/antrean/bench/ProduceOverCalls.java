package io.antrean.bench;

import io.antrean.proto.RequestErrors;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.stub.StreamObserver;
import java.util.function.BiConsumer;

/**
 * A fake's Produce stream: each message is answered by the fake's own Enqueue or EnqueueBatch
 * handler, as the coordinator answers it by the same code as the call.
 */
final class ProduceOverCalls implements StreamObserver<ProduceRequest> {
  private final JobServiceGrpc.JobServiceImplBase calls;
  private final StreamObserver<ProduceResponse> out;

  ProduceOverCalls(JobServiceGrpc.JobServiceImplBase calls, StreamObserver<ProduceResponse> out) {
    this.calls = calls;
    this.out = out;
  }

  @Override
  public void onNext(ProduceRequest request) {
    long id = request.getRequestId();
    if (request.hasEnqueue()) {
      calls.enqueue(request.getEnqueue(), answer(id, (b, r) -> b.setEnqueue(r)));
    } else {
      calls.enqueueBatch(request.getEnqueueBatch(), answer(id, (b, r) -> b.setEnqueueBatch(r)));
    }
  }

  private <A> StreamObserver<A> answer(long id, BiConsumer<ProduceResponse.Builder, A> set) {
    return new StreamObserver<>() {
      @Override
      public void onNext(A value) {
        ProduceResponse.Builder b = ProduceResponse.newBuilder().setRequestId(id);
        set.accept(b, value);
        send(b.build());
      }

      @Override
      public void onError(Throwable t) {
        send(ProduceResponse.newBuilder().setRequestId(id).setError(RequestErrors.of(t)).build());
      }

      @Override
      public void onCompleted() {}
    };
  }

  private void send(ProduceResponse response) {
    synchronized (out) {
      out.onNext(response);
    }
  }

  @Override
  public void onError(Throwable t) {}

  @Override
  public void onCompleted() {
    synchronized (out) {
      out.onCompleted();
    }
  }
}
