package io.antrean.coordinator.security;

import java.util.Set;
import javax.annotation.Nullable;
import javax.net.ssl.SSLContext;

/**
 * How a coordinator protects itself: who may call it, over what, and what the HTTP API accepts.
 *
 * @param authenticator the identities; null runs open (no authentication), which {@link
 *     ExposureCheck} allows only on loopback or with {@code --insecure}
 * @param httpTls the HTTPS context; null serves plain HTTP
 * @param reflection whether the gRPC reflection service is on
 * @param allowedHosts the names the HTTP {@code Host} header and an {@code Origin} may carry, on
 *     top of the loopback names, which are always allowed
 * @param warning shown at start and in {@code /healthz} when the coordinator is exposed without TLS
 *     or authentication ({@code --insecure}); null otherwise
 */
public record SecurityConfig(
    @Nullable Authenticator authenticator,
    @Nullable SSLContext httpTls,
    boolean reflection,
    Set<String> allowedHosts,
    @Nullable String warning) {
  public SecurityConfig {
    allowedHosts = Set.copyOf(allowedHosts);
  }

  /** No authentication, no TLS, reflection on, loopback names only: the dev mode. */
  public static SecurityConfig open() {
    return new SecurityConfig(null, null, true, Set.of(), null);
  }

  /** This configuration with these identities. */
  public SecurityConfig withAuthenticator(@Nullable Authenticator authenticator) {
    return new SecurityConfig(authenticator, httpTls, reflection, allowedHosts, warning);
  }
}
