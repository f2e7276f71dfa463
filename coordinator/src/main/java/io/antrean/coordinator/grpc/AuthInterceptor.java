package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.CallerIdentity;
import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Authenticator;
import io.antrean.coordinator.security.CertificateNames;
import io.antrean.coordinator.security.Identity;
import io.grpc.Context;
import io.grpc.Contexts;
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
 * certificate under mutual TLS) and authorizes the method by {@link AccessPolicy}; {@link
 * QueueAccessInterceptor} then checks the queues the parsed request names. Refusals are
 * UNAUTHENTICATED or PERMISSION_DENIED with an ErrorInfo reason (through {@link StatusMapping});
 * the handler never sees a refused call. The identity is in the call's context for the services
 * ({@link CallerIdentity}). Credentials are never logged. Thread-safe.
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
    Context context = CallerIdentity.contextOf(identity);
    return Contexts.interceptCall(context, call, headers, next);
  }

  private static <Q, A> ServerCall.Listener<Q> refuse(
      ServerCall<Q, A> call, String operation, AccessDeniedException e) {
    log.info("{} refused: {}", operation, e.reason());
    StatusRuntimeException status = StatusMapping.toStatus(e);
    call.close(status.getStatus(), status.getTrailers());
    return new ServerCall.Listener<>() {};
  }
}
