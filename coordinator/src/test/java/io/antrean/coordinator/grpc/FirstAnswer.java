package io.antrean.coordinator.grpc;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The observer of a stream whose first answer a test waits for: {@link #get} returns it, or throws
 * the stream's error, or fails when the stream ends without one. Thread-safe.
 *
 * @param <A> the stream's answer message
 */
final class FirstAnswer<A> implements StreamObserver<A> {
  private final CompletableFuture<A> answer = new CompletableFuture<>();

  @Override
  public void onNext(A value) {
    answer.complete(value);
  }

  @Override
  public void onError(Throwable t) {
    answer.completeExceptionally(t);
  }

  @Override
  public void onCompleted() {
    answer.completeExceptionally(new AssertionError("stream ended without an answer"));
  }

  /** Whether the first answer (or the stream's end) has come. */
  boolean isDone() {
    return answer.isDone();
  }

  /** Waits up to 10 s for the first answer. */
  A get() throws Exception {
    return answer.get(10, TimeUnit.SECONDS);
  }
}
