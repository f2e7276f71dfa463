package io.antrean.coordinator.grpc;

import io.antrean.coordinator.metrics.RpcDurations;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Times every gRPC call from its start to its close and records it in {@link RpcDurations} under
 * the full method name and the status code; a call the client cancelled (or whose deadline passed)
 * before it was answered counts as {@code CANCELLED}. Thread-safe.
 */
public final class RpcMetricsInterceptor implements ServerInterceptor {
  private final RpcDurations durations;

  public RpcMetricsInterceptor(RpcDurations durations) {
    this.durations = durations;
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    TimedCall<ReqT, RespT> timed = new TimedCall<>(call);
    return new SimpleForwardingServerCallListener<>(next.startCall(timed, headers)) {
      @Override
      public void onCancel() {
        timed.record(Status.Code.CANCELLED);
        super.onCancel();
      }
    };
  }

  private final class TimedCall<ReqT, RespT> extends SimpleForwardingServerCall<ReqT, RespT> {
    private final long startNanos = System.nanoTime();
    private final AtomicBoolean recorded = new AtomicBoolean();
    private final String method;

    TimedCall(ServerCall<ReqT, RespT> delegate) {
      super(delegate);
      this.method = delegate.getMethodDescriptor().getFullMethodName();
    }

    @Override
    public void close(Status status, Metadata trailers) {
      record(status.getCode());
      super.close(status, trailers);
    }

    void record(Status.Code code) {
      if (recorded.compareAndSet(false, true)) {
        durations.record(method, code.name(), System.nanoTime() - startNanos);
      }
    }
  }
}
