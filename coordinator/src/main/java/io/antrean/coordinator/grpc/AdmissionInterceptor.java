package io.antrean.coordinator.grpc;

import com.google.protobuf.MessageLite;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.core.Admission.Kind;
import io.antrean.coordinator.store.OverloadedException;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Admission control for gRPC: every call of the Antrean services takes a place in {@link Admission}
 * before it starts (Lease as a long-poll, WatchJob as a watch stream, the rest as unary calls), and
 * a unary call's request message holds its serialized size in bytes until the call ends. Past a
 * limit the call is answered {@code RESOURCE_EXHAUSTED} with {@code ErrorInfo} reason {@code
 * OVERLOADED} and a {@code RetryInfo} delay, and the service never sees it. Health and reflection
 * calls are not counted, nor is a Work or Produce stream: each of its requests is admitted as the
 * call it stands for ({@link RequestStream}). Thread-safe.
 */
public final class AdmissionInterceptor implements ServerInterceptor {
  private static final Set<String> SERVICES =
      Set.of(
          JobServiceGrpc.SERVICE_NAME,
          WorkerServiceGrpc.SERVICE_NAME,
          AdminServiceGrpc.SERVICE_NAME);

  private final Admission admission;

  public AdmissionInterceptor(Admission admission) {
    this.admission = admission;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    String method = call.getMethodDescriptor().getFullMethodName();
    if (!SERVICES.contains(call.getMethodDescriptor().getServiceName())
        || method.equals(WorkerServiceGrpc.getWorkMethod().getFullMethodName())
        || method.equals(JobServiceGrpc.getProduceMethod().getFullMethodName())) {
      // A Work or Produce stream's requests are admitted one by one, as calls of their kind
      // (RequestStream).
      return next.startCall(call, headers);
    }
    Kind kind = kindOf(method);
    Admission.Ticket ticket;
    try {
      ticket = admission.admit(kind);
    } catch (OverloadedException e) {
      refuse(call, e);
      return new ServerCall.Listener<>() {};
    }
    AtomicBoolean refused = new AtomicBoolean();
    ServerCall<Q, A> releasing =
        new SimpleForwardingServerCall<>(call) {
          @Override
          public void close(Status status, Metadata trailers) {
            ticket.close();
            super.close(status, trailers);
          }
        };
    ServerCall.Listener<Q> listener;
    try {
      listener = next.startCall(releasing, headers);
    } catch (RuntimeException e) {
      ticket.close();
      throw e;
    }
    return new SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onMessage(Q message) {
        if (kind == Kind.UNARY) {
          try {
            ticket.addBytes(sizeOf(message));
          } catch (OverloadedException e) {
            refused.set(true);
            release(message);
            refuse(releasing, e);
            return;
          }
        }
        super.onMessage(message);
      }

      @Override
      public void onHalfClose() {
        // A refused call was closed already; its handler must not run without its message.
        if (!refused.get()) {
          super.onHalfClose();
        }
      }

      @Override
      public void onCancel() {
        ticket.close();
        super.onCancel();
      }

      @Override
      public void onComplete() {
        ticket.close();
        super.onComplete();
      }
    };
  }

  /**
   * The request's size in bytes: a parsed message's serialized size, or, for a service served with
   * raw bytes ({@link UnparseableRequests}), what the stream holds, so the bytes are counted before
   * they are parsed.
   */
  private static long sizeOf(Object message) {
    if (message instanceof MessageLite m) {
      return m.getSerializedSize();
    }
    if (message instanceof InputStream in) {
      try {
        return in.available();
      } catch (IOException e) {
        return 0;
      }
    }
    return 0;
  }

  /** Frees a refused raw request's buffer now instead of when it is collected. */
  private static void release(Object message) {
    if (message instanceof InputStream in) {
      try {
        in.close();
      } catch (IOException e) {
        // nothing held any more either way
      }
    }
  }

  private static Kind kindOf(String fullMethodName) {
    if (fullMethodName.equals(WorkerServiceGrpc.getLeaseMethod().getFullMethodName())) {
      return Kind.LONG_POLL;
    }
    if (fullMethodName.equals(JobServiceGrpc.getWatchJobMethod().getFullMethodName())) {
      return Kind.WATCH;
    }
    return Kind.UNARY;
  }

  private static void refuse(ServerCall<?, ?> call, OverloadedException e) {
    StatusRuntimeException status = StatusMapping.toStatus(e);
    Metadata trailers = status.getTrailers();
    call.close(status.getStatus(), trailers == null ? new Metadata() : trailers);
  }
}
