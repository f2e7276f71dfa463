package io.antrean.coordinator.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An interceptor that notes the thread each method's interceptors ran on, by bare method name (the
 * last call of a method wins). Thread-safe.
 */
final class InterceptedThreads implements ServerInterceptor {
  private final Map<String, String> threads = new ConcurrentHashMap<>();

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    threads.put(call.getMethodDescriptor().getBareMethodName(), Thread.currentThread().getName());
    return next.startCall(call, headers);
  }

  /** The name of the thread {@code bareMethodName}'s interceptors last ran on; null if none. */
  String of(String bareMethodName) {
    return threads.get(bareMethodName);
  }
}
