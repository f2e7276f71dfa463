package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import io.antrean.proto.v1.RequestError;
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
import java.util.function.Function;

/**
 * One request stream (Work, Produce) from a test's side: the requests it sends and the answers that
 * come back.
 */
public class TestRequestStream<Q, R> implements ClientResponseObserver<Q, R> {
  /** The answers, in arrival order. */
  public final BlockingQueue<R> answers = new LinkedBlockingQueue<>();

  /** How the stream ended: OK when the coordinator ended it, else its error's status. */
  public final CompletableFuture<Status> end = new CompletableFuture<>();

  public final StreamObserver<Q> requests;
  private ClientCallStreamObserver<Q> call;

  /**
   * @param open opens the stream with the observer it is given, as an async stub's method does
   */
  TestRequestStream(Function<StreamObserver<R>, StreamObserver<Q>> open) {
    requests = open.apply(this);
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<Q> requestStream) {
    call = requestStream;
  }

  /** The next answer, waited for up to 10 s. */
  public R next() throws InterruptedException {
    R answer = answers.poll(10, TimeUnit.SECONDS);
    assertThat(answer).as("an answer on the stream").isNotNull();
    return answer;
  }

  /**
   * An error answer as the unary call would have thrown it: its bytes read as the google.rpc.Status
   * they are laid out as.
   */
  public static StatusRuntimeException error(RequestError error) {
    try {
      return StatusProto.toStatusRuntimeException(
          com.google.rpc.Status.parseFrom(error.toByteString()));
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError("a RequestError is a google.rpc.Status on the wire", e);
    }
  }

  /** Cancels the whole stream, as a client's broken connection would. */
  public void cancelStream() {
    call.cancel("test", null);
  }

  @Override
  public void onNext(R value) {
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
