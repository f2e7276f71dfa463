package io.antrean.coordinator.grpc;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Runs one unary handler body and sends its answer, or its error through {@link StatusMapping}. */
final class Unary {
  private Unary() {}

  static <T> void answer(StreamObserver<T> observer, Supplier<T> body) {
    answerAsync(observer, () -> CompletableFuture.completedFuture(body.get()));
  }

  /**
   * Answers when the body's future completes, on the thread that completes it; the body itself must
   * not block. An exception from the body or the future goes through {@link StatusMapping}.
   */
  static <T> void answerAsync(StreamObserver<T> observer, Supplier<CompletableFuture<T>> body) {
    CompletableFuture<T> future;
    try {
      future = body.get();
    } catch (RuntimeException e) {
      observer.onError(StatusMapping.toStatus(e));
      return;
    }
    future.whenComplete(
        (response, error) -> {
          if (error != null) {
            observer.onError(StatusMapping.toStatus(error));
            return;
          }
          observer.onNext(response);
          observer.onCompleted();
        });
  }
}
