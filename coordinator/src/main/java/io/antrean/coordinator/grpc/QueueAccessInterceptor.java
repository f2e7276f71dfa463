package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.CallerIdentity;
import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.security.RequestQueues;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-queue half of authorization: once a request is parsed, every queue it names must be one
 * the caller ({@link CallerIdentity}, set by {@link AuthInterceptor}) may use, else the call ends
 * PERMISSION_DENIED ({@code QUEUE_NOT_ALLOWED}) before the handler sees it. Without authentication
 * there is no caller and it lets everything through. Thread-safe.
 */
final class QueueAccessInterceptor implements ServerInterceptor {
  private static final Logger log = LoggerFactory.getLogger(QueueAccessInterceptor.class);

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    Identity identity = CallerIdentity.current();
    ServerCall.Listener<Q> delegate = next.startCall(call, headers);
    if (identity == null) {
      return delegate;
    }
    return new SimpleForwardingServerCallListener<>(delegate) {
      private boolean refused;

      @Override
      public void onMessage(Q message) {
        try {
          RequestQueues.of(message).forEach(q -> AccessPolicy.checkQueue(identity, q));
        } catch (AccessDeniedException e) {
          refused = true;
          log.info(
              "{} refused for {}: {}",
              call.getMethodDescriptor().getFullMethodName(),
              identity.name(),
              e.reason());
          StatusRuntimeException status = StatusMapping.toStatus(e);
          call.close(status.getStatus(), status.getTrailers());
          return;
        }
        super.onMessage(message);
      }

      @Override
      public void onHalfClose() {
        if (!refused) {
          super.onHalfClose();
        }
      }
    };
  }
}
