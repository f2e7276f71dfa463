package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.JobServiceCalls;
import io.antrean.coordinator.core.Admission;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.antrean.proto.v1.RequestError;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One producer's Produce stream: Enqueue and EnqueueBatch as messages instead of calls, answered by
 * the same code as the calls ({@link JobServiceCalls}); each is admitted as its call with its bytes
 * and answered once stored. Once a request came while another was unanswered, the producer is
 * pipelining: from then on its requests are stored among the others ({@link
 * JobServiceCalls#amongOtherEnqueues}), so on SQLite a burst's first Enqueue does not hold the
 * network thread for its own commit and fsync while the rest of the burst waits unread. It stays so
 * for the stream's life (the Java client opens a new stream every 1,000 requests). The rest is
 * {@link RequestStream}'s.
 */
final class ProduceStream extends RequestStream<ProduceRequest, ProduceResponse> {
  private static final String ENQUEUE = JobServiceGrpc.getEnqueueMethod().getFullMethodName();
  private static final String ENQUEUE_BATCH =
      JobServiceGrpc.getEnqueueBatchMethod().getFullMethodName();

  private final JobServiceCalls calls;
  // Once a request came while another was unanswered; gRPC calls onNext one message at a time.
  private boolean pipelining;

  ProduceStream(
      ServerCallStreamObserver<ProduceResponse> out,
      JobServiceCalls calls,
      RequestStreams streams) {
    super(out, streams);
    this.calls = calls;
  }

  @Override
  public void onNext(ProduceRequest request) {
    long id = request.getRequestId();
    pipelining = pipelining || anyUnanswered();
    switch (request.getCallCase()) {
      case ENQUEUE ->
          start(
              id,
              ENQUEUE,
              request.getEnqueue(),
              Admission.Kind.UNARY,
              stored(calls::enqueueAsync),
              (i, r) -> ProduceResponse.newBuilder().setRequestId(i).setEnqueue(r).build(),
              NOTHING_HELD);
      case ENQUEUE_BATCH ->
          start(
              id,
              ENQUEUE_BATCH,
              request.getEnqueueBatch(),
              Admission.Kind.UNARY,
              stored(calls::enqueueBatchAsync),
              (i, r) -> ProduceResponse.newBuilder().setRequestId(i).setEnqueueBatch(r).build(),
              NOTHING_HELD);
      case CALL_NOT_SET -> endInvalid("call", "must be one of enqueue or enqueue_batch");
    }
  }

  /** How a request is stored: among the others once the producer is pipelining. */
  private <M, A> Function<M, CompletableFuture<A>> stored(Function<M, CompletableFuture<A>> call) {
    return pipelining ? r -> calls.amongOtherEnqueues(() -> call.apply(r)) : call;
  }

  @Override
  ProduceResponse errorResponse(long id, RequestError error) {
    return ProduceResponse.newBuilder().setRequestId(id).setError(error).build();
  }
}
