package io.antrean.coordinator.http;

import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Authenticator;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.Sessions;
import java.net.URI;
import java.time.Clock;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * What every matched HTTP request passes before its handler runs, in this order:
 *
 * <ol>
 *   <li>{@code Host} must be a loopback name, the bound address or a configured name (403 {@code
 *       HOST_NOT_ALLOWED}): a DNS-rebinding page reaches the server under its own name;
 *   <li>an {@code Origin}, when sent, must name one of those hosts (403 {@code
 *       ORIGIN_NOT_ALLOWED}): no other site's page may drive the API, and no CORS header is ever
 *       sent;
 *   <li>a state-changing request must be {@code application/json} (415 {@code
 *       UNSUPPORTED_MEDIA_TYPE}): a form or a {@code text/plain} fetch, which a page may send
 *       anywhere without asking, is refused;
 *   <li>with authentication on, a bearer token ({@code Authorization}) or a dashboard session
 *       cookie, authorized by {@link AccessPolicy} (401, 403).
 * </ol>
 *
 * Thread-safe.
 */
final class HttpGuard {
  static final String SESSION_COOKIE = "antrean_session";
  private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "::1", "[::1]");

  @Nullable private final Authenticator authenticator;
  private final Sessions sessions;
  private final Set<String> allowedHosts;
  private final Clock clock;
  private final boolean tls;

  HttpGuard(SecurityConfig config, Sessions sessions, String boundHost, Clock clock) {
    this.authenticator = config.authenticator();
    this.sessions = sessions;
    this.clock = clock;
    this.tls = config.httpTls() != null;
    Set<String> hosts = new HashSet<>(LOOPBACK);
    for (String h : config.allowedHosts()) {
      hosts.add(h.toLowerCase(Locale.ROOT));
    }
    if (!boundHost.equals("0.0.0.0") && !boundHost.equals("::") && !boundHost.isEmpty()) {
      hosts.add(boundHost.toLowerCase(Locale.ROOT));
    }
    this.allowedHosts = Set.copyOf(hosts);
  }

  /** True when the server speaks HTTPS (session cookies are then {@code Secure}). */
  boolean tls() {
    return tls;
  }

  Sessions sessions() {
    return sessions;
  }

  @Nullable
  Authenticator authenticator() {
    return authenticator;
  }

  /**
   * Admits the call or throws the refusal; on admission the call knows its identity (null when
   * authentication is off or the route is open).
   */
  @Nullable
  Identity admit(String label, HttpCall call) {
    String host = call.requestHeader("Host");
    if (host != null && !allowedHosts.contains(hostPart(host))) {
      throw HttpProblem.forbidden(
          "HOST_NOT_ALLOWED",
          "Host '" + host + "' is not a name of this coordinator; add it with --http-allowed-host");
    }
    String origin = call.requestHeader("Origin");
    if (origin != null && !originAllowed(origin)) {
      throw HttpProblem.forbidden(
          "ORIGIN_NOT_ALLOWED",
          "requests from origin '"
              + origin
              + "' are refused; add its host with --http-allowed-host");
    }
    if (!call.method().equals("GET") && !call.method().equals("HEAD") && !isJson(call)) {
      throw HttpProblem.unsupportedMediaType();
    }
    if (authenticator == null || RouteOperations.isOpen(label)) {
      return null;
    }
    Identity identity = authenticator.authenticate(credentials(call), null);
    AccessPolicy.check(identity, RouteOperations.of(label));
    call.authorize(identity);
    String queue = queueOf(label, call);
    if (queue != null) {
      AccessPolicy.checkQueue(identity, queue);
    }
    return identity;
  }

  /** The bearer header, else the token of the session the cookie names, else null. */
  @Nullable
  private String credentials(HttpCall call) {
    String authorization = call.requestHeader("Authorization");
    if (authorization != null) {
      return authorization;
    }
    String session = call.cookie(SESSION_COOKIE);
    if (session == null) {
      return null;
    }
    return sessions
        .token(session, clock.instant())
        .map(t -> "Bearer " + t)
        .orElseThrow(AccessDeniedException::invalidCredentials);
  }

  @Nullable
  private static String queueOf(String label, HttpCall call) {
    if (label.endsWith(":pause") || label.endsWith(":resume") || label.endsWith(":limits")) {
      return call.pathParam();
    }
    if (label.equals("GET /v1/jobs")
        || label.equals("GET /v1/stats")
        || label.equals("GET /v1/dead-letters")) {
      String queue =
          call.query(
                  Set.of(
                      "queue",
                      "type",
                      "state",
                      "page_size",
                      "page_token",
                      "error",
                      "failed_after",
                      "failed_before"))
              .text("queue");
      return queue.isEmpty() ? AccessPolicy.ALL_QUEUES : queue;
    }
    return null;
  }

  private boolean originAllowed(String origin) {
    try {
      URI uri = URI.create(origin);
      String scheme = uri.getScheme();
      return uri.getHost() != null
          && ("http".equals(scheme) || "https".equals(scheme))
          && allowedHosts.contains(uri.getHost().toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean isJson(HttpCall call) {
    String type = call.requestHeader("Content-Type");
    if (type == null) {
      return false;
    }
    int semicolon = type.indexOf(';');
    String media = (semicolon < 0 ? type : type.substring(0, semicolon)).strip();
    return media.equalsIgnoreCase("application/json");
  }

  /** The host of a Host header value, lower case, without the port. */
  static String hostPart(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end < 0 ? h : h.substring(0, end + 1);
    }
    int colon = h.lastIndexOf(':');
    return colon < 0 ? h : h.substring(0, colon);
  }
}
