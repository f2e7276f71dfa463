package io.antrean.coordinator.grpc;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkCancel;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Channel;
import io.grpc.StatusRuntimeException;

/** One Work stream from a test's side: the requests it sends and the answers that come back. */
public final class TestWorkStream extends TestRequestStream<WorkRequest, WorkResponse> {
  public static final com.google.protobuf.Duration NO_WAIT =
      com.google.protobuf.Duration.getDefaultInstance();
  public static final com.google.protobuf.Duration LONG_WAIT =
      com.google.protobuf.Duration.newBuilder().setSeconds(20).build();

  public TestWorkStream(Channel channel) {
    super(WorkerServiceGrpc.newStub(channel)::work);
  }

  /** Sends a lease of worker {@code w} for type {@code t}. */
  public void lease(long id, int maxJobs, com.google.protobuf.Duration wait) {
    lease(
        id,
        LeaseRequest.newBuilder().setWorkerId("w").addTypes("t").setMaxJobs(maxJobs).setWait(wait));
  }

  public void lease(long id, LeaseRequest.Builder lease) {
    requests.onNext(WorkRequest.newBuilder().setRequestId(id).setLease(lease).build());
  }

  /** Sends a batch of worker {@code w}'s completions. */
  public void completeBatch(long id, CompleteItem... items) {
    CompleteBatchRequest.Builder batch = CompleteBatchRequest.newBuilder().setWorkerId("w");
    for (CompleteItem item : items) {
      batch.addItems(item);
    }
    requests.onNext(WorkRequest.newBuilder().setRequestId(id).setCompleteBatch(batch).build());
  }

  public void cancel(long id) {
    requests.onNext(
        WorkRequest.newBuilder()
            .setRequestId(id)
            .setCancel(WorkCancel.getDefaultInstance())
            .build());
  }

  /** An error answer as the unary call would have thrown it. */
  public static StatusRuntimeException error(WorkResponse answer) {
    return error(answer.getError());
  }
}
