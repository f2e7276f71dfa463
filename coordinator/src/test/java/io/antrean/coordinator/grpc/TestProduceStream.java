package io.antrean.coordinator.grpc;

import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.Channel;
import io.grpc.StatusRuntimeException;

/** One Produce stream from a test's side: the requests it sends and the answers that come back. */
public final class TestProduceStream extends TestRequestStream<ProduceRequest, ProduceResponse> {
  public TestProduceStream(Channel channel) {
    super(JobServiceGrpc.newStub(channel)::produce);
  }

  public void enqueue(long id, EnqueueRequest.Builder enqueue) {
    requests.onNext(ProduceRequest.newBuilder().setRequestId(id).setEnqueue(enqueue).build());
  }

  public void enqueueBatch(long id, EnqueueBatchRequest.Builder batch) {
    requests.onNext(ProduceRequest.newBuilder().setRequestId(id).setEnqueueBatch(batch).build());
  }

  /** An error answer as the unary call would have thrown it. */
  public static StatusRuntimeException error(ProduceResponse answer) {
    return error(answer.getError());
  }
}
