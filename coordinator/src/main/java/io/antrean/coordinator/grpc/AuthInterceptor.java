package io.antrean.coordinator.grpc;

import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Authenticator;
import io.antrean.coordinator.security.CertificateNames;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.security.RequestQueues;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Authenticates every call but health checks ({@code authorization: Bearer} metadata, or a client
 * certificate under mutual TLS) and authorizes it by {@link AccessPolicy}: first the method, then,
 * once the request arrived, every queue it names. Refusals are UNAUTHENTICATED or PERMISSION_DENIED
 * with an ErrorInfo reason (through {@link StatusMapping}); the handler never sees a refused call.
 * The identity is in the call's context for the services ({@link CallerIdentity}). Credentials are
 * never logged. Thread-safe.
 */
public final class AuthInterceptor implements ServerInterceptor {
  private static final Logger log = LoggerFactory.getLogger(AuthInterceptor.class);
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final Authenticator authenticator;

  public AuthInterceptor(Authenticator authenticator) {
    this.authenticator = authenticator;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    String operation = call.getMethodDescriptor().getFullMethodName();
    if (AccessPolicy.isOpen(operation)) {
      return next.startCall(call, headers);
    }
    Identity identity;
    try {
      identity =
          authenticator.authenticate(
              headers.get(AUTHORIZATION),
              CertificateNames.of(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION)));
      AccessPolicy.check(identity, operation);
    } catch (AccessDeniedException e) {
      return refuse(call, operation, e);
    }
    Context context = Context.current().withValue(CallerIdentity.KEY, identity);
    ServerCall.Listener<Q> delegate = Contexts.interceptCall(context, call, headers, next);
    return new SimpleForwardingServerCallListener<>(delegate) {
      private boolean refused;

      @Override
      public void onMessage(Q message) {
        try {
          RequestQueues.of(message).forEach(q -> AccessPolicy.checkQueue(identity, q));
        } catch (AccessDeniedException e) {
          refused = true;
          log.info("{} refused for {}: {}", operation, identity.name(), e.reason());
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

  private static <Q, A> ServerCall.Listener<Q> refuse(
      ServerCall<Q, A> call, String operation, AccessDeniedException e) {
    log.info("{} refused: {}", operation, e.reason());
    StatusRuntimeException status = StatusMapping.toStatus(e);
    call.close(status.getStatus(), status.getTrailers());
    return new ServerCall.Listener<>() {};
  }
}
