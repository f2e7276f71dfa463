package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkCancel;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** One Work stream from a test's side: the requests it sends and the answers that come back. */
public final class TestWorkStream implements ClientResponseObserver<WorkRequest, WorkResponse> {
  public static final com.google.protobuf.Duration NO_WAIT =
      com.google.protobuf.Duration.getDefaultInstance();
  public static final com.google.protobuf.Duration LONG_WAIT =
      com.google.protobuf.Duration.newBuilder().setSeconds(20).build();

  /** The answers, in arrival order. */
  public final BlockingQueue<WorkResponse> answers = new LinkedBlockingQueue<>();

  /** How the stream ended: OK when the coordinator ended it, else its error's status. */
  public final CompletableFuture<Status> end = new CompletableFuture<>();

  public final StreamObserver<WorkRequest> requests;
  private ClientCallStreamObserver<WorkRequest> call;

  public TestWorkStream(Channel channel) {
    requests = WorkerServiceGrpc.newStub(channel).work(this);
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<WorkRequest> requestStream) {
    call = requestStream;
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

  /** The next answer, waited for up to 10 s. */
  public WorkResponse next() throws InterruptedException {
    WorkResponse answer = answers.poll(10, TimeUnit.SECONDS);
    assertThat(answer).as("an answer on the stream").isNotNull();
    return answer;
  }

  /**
   * An error answer as the unary call would have thrown it: its bytes read as the google.rpc.Status
   * they are laid out as.
   */
  public static StatusRuntimeException error(WorkResponse answer) {
    try {
      return StatusProto.toStatusRuntimeException(
          com.google.rpc.Status.parseFrom(answer.getError().toByteString()));
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError("a WorkError is a google.rpc.Status on the wire", e);
    }
  }

  /** Cancels the whole stream, as a worker's broken connection would. */
  public void cancelStream() {
    call.cancel("test", null);
  }

  @Override
  public void onNext(WorkResponse value) {
    answers.add(value);
  }

  @Override
  public void onError(Throwable t) {
    end.complete(Status.fromThrowable(t));
  }

  @Override
  public void onCompleted() {
    end.complete(Status.OK);
  }
}
