package io.antrean.coordinator.http;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.security.Role;
import java.io.IOException;
import java.time.Clock;
import java.util.Set;

/**
 * The dashboard's sign-in, for coordinators with authentication:
 *
 * <ul>
 *   <li>{@code POST /v1/session}, body {@code {"token":"..."}}: 200 with the identity's name and
 *       roles, and a session cookie that is {@code HttpOnly} (no script reads it), {@code
 *       SameSite=Strict} (no other site's request carries it) and {@code Secure} under TLS; 401 for
 *       an unknown token
 *   <li>{@code POST /v1/session:end}: ends the session and clears the cookie
 * </ul>
 */
final class SessionRoutes {
  private final HttpGuard guard;
  private final Clock clock;

  SessionRoutes(HttpGuard guard, Clock clock) {
    this.guard = guard;
    this.clock = clock;
  }

  void addTo(Router router) {
    router.add("POST", "/v1/session", this::start).add("POST", "/v1/session:end", this::end);
  }

  private void start(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    Struct body = call.json(Struct.newBuilder()).build();
    Value token = body.getFieldsOrDefault("token", Value.getDefaultInstance());
    if (guard.authenticator() == null) {
      call.respond(200, identity("", Set.of()));
      return;
    }
    if (token.getStringValue().isBlank()) {
      throw AccessDeniedException.missingCredentials();
    }
    Identity identity =
        guard.authenticator().authenticate("Bearer " + token.getStringValue().strip(), null);
    String session = guard.sessions().start(token.getStringValue().strip(), clock.instant());
    call.header("Set-Cookie", cookie(session, guard.sessions().lifetime().toSeconds()));
    call.respond(200, identity(identity.name(), identity.roles()));
  }

  private void end(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    String session = call.cookie(HttpGuard.SESSION_COOKIE);
    if (session != null) {
      guard.sessions().end(session);
    }
    call.header("Set-Cookie", cookie("", 0));
    call.respond(200, Struct.getDefaultInstance());
  }

  private String cookie(String value, long maxAgeSeconds) {
    return HttpGuard.SESSION_COOKIE
        + "="
        + value
        + "; Path=/; Max-Age="
        + maxAgeSeconds
        + "; HttpOnly; SameSite=Strict"
        + (guard.tls() ? "; Secure" : "");
  }

  private static Struct identity(String name, Set<Role> roles) {
    com.google.protobuf.ListValue.Builder list = com.google.protobuf.ListValue.newBuilder();
    roles.forEach(r -> list.addValues(Value.newBuilder().setStringValue(r.label())));
    return Struct.newBuilder()
        .putFields("identity", Value.newBuilder().setStringValue(name).build())
        .putFields("roles", Value.newBuilder().setListValue(list).build())
        .build();
  }
}
