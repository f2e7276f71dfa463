package io.antrean.coordinator.grpc;

import io.grpc.stub.StreamObserver;
import java.util.function.Supplier;

/** Runs one unary handler body and sends its answer, or its error through {@link StatusMapping}. */
final class Unary {
  private Unary() {}

  static <T> void answer(StreamObserver<T> observer, Supplier<T> body) {
    T response;
    try {
      response = body.get();
    } catch (RuntimeException e) {
      observer.onError(StatusMapping.toStatus(e));
      return;
    }
    observer.onNext(response);
    observer.onCompleted();
  }
}
