package io.antrean.coordinator.api;

import io.antrean.coordinator.security.Identity;
import io.grpc.Context;
import javax.annotation.Nullable;

/**
 * The identity the transport (the gRPC {@code AuthInterceptor}, the HTTP router) established for
 * the current call, or none when the coordinator runs without authentication. It travels in the
 * call-scoped {@link Context}, which both transports attach around their handlers.
 */
public final class CallerIdentity {
  static final Context.Key<Identity> KEY = Context.key("antrean-identity");

  private CallerIdentity() {}

  @Nullable
  public static Identity current() {
    return KEY.get();
  }

  /**
   * A context in which {@code identity} is the caller, for transports other than gRPC (the HTTP API
   * attaches it around its handlers).
   */
  public static Context contextOf(Identity identity) {
    return Context.current().withValue(KEY, identity);
  }

  /**
   * True when the caller may see the secrets of a lease held under {@code leaseWorkerId}: without
   * authentication anyone, with it only the identity that took the lease.
   */
  static boolean holds(String leaseWorkerId) {
    Identity identity = current();
    return identity == null || leaseWorkerId.startsWith(identity.name() + "/");
  }

  /**
   * The worker id a lease is held under: the identity's name and the worker's own id, so a lease
   * taken by one identity can never be presented by another, whatever worker id it claims. Without
   * authentication, the worker's id as sent.
   */
  public static String workerId(String requested) {
    Identity identity = current();
    if (identity == null || requested.isEmpty()) {
      return requested;
    }
    return identity.name() + "/" + requested;
  }
}
