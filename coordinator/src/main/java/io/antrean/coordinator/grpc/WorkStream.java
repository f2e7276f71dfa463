package io.antrean.coordinator.grpc;

import io.antrean.coordinator.core.Admission;
import io.antrean.proto.v1.RequestError;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.stub.ServerCallStreamObserver;

/**
 * One worker's Work stream: Lease and CompleteBatch as messages instead of calls, answered by the
 * same code as the calls ({@link WorkerAnswers}). A lease waits as Lease's long poll does, so a
 * later complete_batch may be answered first; {@code cancel} withdraws a request still unanswered,
 * and the worker's half-close withdraws the leases that wait. Jobs leased for an answer that is
 * then not sent (withdrawn, or the stream ended, as it was answered) are handed back at once rather
 * than left to their leases' expiry. The rest is {@link RequestStream}'s.
 */
final class WorkStream extends RequestStream<WorkRequest, WorkResponse> {
  private static final String LEASE = WorkerServiceGrpc.getLeaseMethod().getFullMethodName();
  private static final String COMPLETE_BATCH =
      WorkerServiceGrpc.getCompleteBatchMethod().getFullMethodName();

  private final WorkerAnswers answers;

  WorkStream(
      ServerCallStreamObserver<WorkResponse> out, WorkerAnswers answers, RequestStreams streams) {
    super(out, streams);
    this.answers = answers;
  }

  @Override
  public void onNext(WorkRequest request) {
    long id = request.getRequestId();
    switch (request.getCallCase()) {
      case CANCEL -> cancel(id);
      case LEASE ->
          start(
              id,
              LEASE,
              request.getLease(),
              Admission.Kind.LONG_POLL,
              answers::lease,
              (i, r) -> WorkResponse.newBuilder().setRequestId(i).setLease(r).build(),
              r -> answers.giveBack(r.getJobsList()));
      case COMPLETE_BATCH ->
          start(
              id,
              COMPLETE_BATCH,
              request.getCompleteBatch(),
              Admission.Kind.UNARY,
              answers::completeBatch,
              (i, r) -> WorkResponse.newBuilder().setRequestId(i).setCompleteBatch(r).build(),
              r -> answers.giveBack(r.getLeasedJobsList()));
      case CALL_NOT_SET -> endInvalid("call", "must be one of lease, complete_batch or cancel");
    }
  }

  @Override
  WorkResponse errorResponse(long id, RequestError error) {
    return WorkResponse.newBuilder().setRequestId(id).setError(error).build();
  }
}
