package io.antrean.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Authenticator;
import io.antrean.coordinator.security.Role;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.TokenFile;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The HTTP API with authentication on, and the browser-facing checks in every mode. */
@Timeout(60)
class HttpSecurityTest {
  @TempDir Path dir;
  private Coordinator coordinator;
  private final Map<Role, String> tokens = new EnumMap<>(Role.class);
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeEach
  void start() throws Exception {
    Path file = dir.resolve("tokens.json");
    for (Role role : Role.values()) {
      tokens.put(
          role, TokenFile.create(file, role.label(), EnumSet.of(role), Set.of(), Instant.now()));
    }
    coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir, SqliteOptions.defaults()),
            Settings.defaults(),
            Clock.systemUTC(),
            InProcessServerBuilder.forName(InProcessServerBuilder.generateName()),
            new HttpEndpoint("127.0.0.1", 0),
            SecurityConfig.open().withAuthenticator(Authenticator.fromFile(file)));
  }

  @AfterEach
  void stop() {
    coordinator.close();
  }

  /** Every API route, with the gRPC call it answers for and a body it accepts. */
  static Stream<Arguments> everyRoute() {
    return Stream.of(
        Arguments.of("POST", "/v1/jobs", "antrean.v1.JobService/Enqueue"),
        Arguments.of("GET", "/v1/jobs", "antrean.v1.JobService/ListJobs"),
        Arguments.of("GET", "/v1/jobs/1", "antrean.v1.JobService/GetJob"),
        Arguments.of("POST", "/v1/jobs/1:cancel", "antrean.v1.JobService/CancelJob"),
        Arguments.of("GET", "/v1/stats", "antrean.v1.JobService/GetStats"),
        Arguments.of("GET", "/v1/dead-letters", "antrean.v1.AdminService/ListDeadLetters"),
        Arguments.of("GET", "/v1/dead-letters/1", "antrean.v1.AdminService/GetDeadLetter"),
        Arguments.of(
            "POST", "/v1/dead-letters:redrive", "antrean.v1.AdminService/RedriveDeadLetters"),
        Arguments.of("POST", "/v1/dead-letters:purge", "antrean.v1.AdminService/PurgeDeadLetters"),
        Arguments.of("GET", "/v1/queues", "antrean.v1.AdminService/ListQueues"),
        Arguments.of("POST", "/v1/queues/default:pause", "antrean.v1.AdminService/PauseQueue"),
        Arguments.of("POST", "/v1/queues/default:resume", "antrean.v1.AdminService/ResumeQueue"),
        Arguments.of("GET", "/v1/workers", "antrean.v1.AdminService/ListWorkers"),
        Arguments.of("GET", "/v1/rates", "antrean.v1.AdminService/GetQueueRates"),
        Arguments.of("GET", "/metrics", "http GET /metrics"));
  }

  @ParameterizedTest
  @MethodSource("everyRoute")
  void everyRouteRefusesMissingAndUnknownCredentialsWith401(
      String method, String path, String operation) throws Exception {
    HttpResponse<String> none = send(method, path, null, Map.of());
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.body()).contains("CREDENTIALS_MISSING");
    HttpResponse<String> unknown =
        send(method, path, null, Map.of("Authorization", "Bearer antrean_nope"));
    assertThat(unknown.statusCode()).isEqualTo(401);
    assertThat(unknown.body()).contains("CREDENTIALS_INVALID");
  }

  @ParameterizedTest
  @MethodSource("everyRoute")
  void everyRouteRefusesRolesThatDoNotAllowItWith403(String method, String path, String operation)
      throws Exception {
    Set<Role> allowed = AccessPolicy.rolesFor(operation);
    for (Role role : Role.values()) {
      HttpResponse<String> r = send(method, path, tokens.get(role), Map.of());
      if (allowed.contains(role)) {
        assertThat(r.statusCode()).as("%s %s as %s", method, path, role).isNotIn(401, 403);
      } else {
        assertThat(r.statusCode()).as("%s %s as %s", method, path, role).isEqualTo(403);
        assertThat(r.body()).contains("ROLE_NOT_ALLOWED");
      }
    }
  }

  /**
   * A refused call whose small body arrives after its headers leaves the connection usable: the
   * server reads and drops the body before answering, so a client that reuses the connection for
   * its next request gets an answer (before, the answer went out at once and the connection was
   * then closed under the client's next request).
   */
  @Test
  void aRefusedCallsLateBodyIsReadSoTheConnectionCarriesTheNextRequest() throws Exception {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", coordinator.httpPort()), 10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /v1/jobs/1:cancel HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                  + tokens.get(Role.READER)
                  + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      // Give a server that answers without the body the moment to do so; nothing is asserted on
      // whether it did, only on what the connection carries afterwards.
      socket.setSoTimeout(300);
      ByteArrayOutputStream early = new ByteArrayOutputStream();
      try {
        early.write(socket.getInputStream().read());
      } catch (SocketTimeoutException expected) {
        // the server waits for the body
      }
      out.write(
          ("{}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      socket.setSoTimeout(10_000);
      early.write(socket.getInputStream().readAllBytes());
      String answers = early.toString(StandardCharsets.US_ASCII);
      assertThat(answers).startsWith("HTTP/1.1 403").contains("ROLE_NOT_ALLOWED");
      assertThat(answers.substring(answers.indexOf("ROLE_NOT_ALLOWED"))).contains("HTTP/1.1 200");
    }
  }

  @Test
  void theCrossOriginPurgeIsRefused() throws Exception {
    HttpResponse<String> plain =
        send(
            "POST",
            "/v1/dead-letters:purge",
            tokens.get(Role.ADMIN),
            Map.of("Origin", "http://evil.example", "Content-Type", "text/plain"));
    assertThat(plain.statusCode()).isEqualTo(403);
    assertThat(plain.body()).contains("ORIGIN_NOT_ALLOWED");
    HttpResponse<String> sameOriginText =
        send(
            "POST",
            "/v1/dead-letters:purge",
            tokens.get(Role.ADMIN),
            Map.of("Content-Type", "text/plain"));
    assertThat(sameOriginText.statusCode()).isEqualTo(415);
  }

  @Test
  void theDashboardSignsInWithATokenIntoAStrictHttpOnlySessionCookie() throws Exception {
    HttpResponse<String> page = send("GET", "/", null, Map.of());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(v -> assertThat(v).contains("frame-ancestors 'none'"));

    HttpResponse<String> bad =
        send("POST", "/v1/session", null, Map.of(), "{\"token\":\"antrean_wrong\"}");
    assertThat(bad.statusCode()).isEqualTo(401);
    HttpResponse<String> signIn =
        send(
            "POST",
            "/v1/session",
            null,
            Map.of(),
            "{\"token\":\"" + tokens.get(Role.READER) + "\"}");
    assertThat(signIn.statusCode()).isEqualTo(200);
    String cookie = signIn.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict").doesNotContain("Secure");
    String session = cookie.substring(0, cookie.indexOf(';'));

    assertThat(send("GET", "/v1/stats", null, Map.of("Cookie", session)).statusCode())
        .isEqualTo(200);
    assertThat(
            send("POST", "/v1/queues/default:pause", null, Map.of("Cookie", session)).statusCode())
        .isEqualTo(403);
    send("POST", "/v1/session:end", null, Map.of("Cookie", session));
    assertThat(send("GET", "/v1/stats", null, Map.of("Cookie", session)).statusCode())
        .isEqualTo(401);
  }

  @Test
  void probesNeedNoCredentials() throws Exception {
    assertThat(send("GET", "/healthz", null, Map.of()).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/readyz", null, Map.of()).statusCode()).isEqualTo(200);
  }

  private HttpResponse<String> send(
      String method, String path, String token, Map<String, String> headers) throws Exception {
    String body =
        method.equals("GET")
            ? null
            : path.endsWith(":purge") || path.endsWith(":redrive") ? "{\"all\":true}" : "{}";
    return send(method, path, token, headers, body);
  }

  private HttpResponse<String> send(
      String method, String path, String token, Map<String, String> headers, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path))
            .timeout(Duration.ofSeconds(10))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null && !headers.containsKey("Content-Type")) {
      b.header("Content-Type", "application/json");
    }
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
