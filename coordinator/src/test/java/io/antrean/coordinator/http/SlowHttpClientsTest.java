package io.antrean.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that send half a request and stall neither starve the probes nor hold their connection
 * past the request timeout (issue 11, defect 5: twelve such clients froze {@code /healthz}). The
 * request timeout is 3 s here, so the test does not wait the default 10 s.
 */
@Timeout(60)
class SlowHttpClientsTest {
  private static final int STALLED = 16;
  private static final String PARTIAL_POST =
      "POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: 100\r\n\r\n{";

  @TempDir Path dir;
  private HttpApiFixture api;
  private final List<Socket> stalled = new ArrayList<>();

  private static final HttpServerLimits LIMITS =
      new HttpServerLimits(
          Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(30), 256);

  @BeforeEach
  void start() throws Exception {
    api = new HttpApiFixture(dir, LIMITS);
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket s : stalled) {
      s.close();
    }
    api.close();
  }

  @Test
  void probesAnswerWhileClientsStallMidBodyAndTheStalledConnectionsAreDropped() throws Exception {
    for (int i = 0; i < STALLED; i++) {
      Socket s = connect();
      s.getOutputStream().write(PARTIAL_POST.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      stalled.add(s);
    }

    for (int i = 0; i < 5; i++) {
      assertThat(rawGet("/healthz", 2_000)).startsWith("HTTP/1.1 200");
      assertThat(rawGet("/readyz", 2_000)).startsWith("HTTP/1.1 200");
    }

    // The request timeout closes each stalled connection after a JSON 408: read sees the end.
    long limitMillis = LIMITS.requestTimeout().toMillis() + 15_000;
    for (Socket s : stalled) {
      s.setSoTimeout((int) limitMillis);
      String answer;
      try {
        answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      } catch (SocketTimeoutException e) {
        throw new AssertionError("a stalled request was still open after " + limitMillis + " ms");
      }
      assertThat(answer)
          .startsWith("HTTP/1.1 408")
          .contains("\"REQUEST_TIMEOUT\"")
          .containsIgnoringCase("Connection: close");
    }
    assertThat(rawGet("/healthz", 2_000)).startsWith("HTTP/1.1 200");
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", api.coordinator.httpPort()), 2_000);
    return s;
  }

  /** A GET on a new connection; fails when no full status line arrives within the timeout. */
  private String rawGet(String path, int timeoutMillis) throws IOException {
    try (Socket s = connect()) {
      s.setSoTimeout(timeoutMillis);
      s.getOutputStream()
          .write(
              ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      byte[] answer = s.getInputStream().readAllBytes();
      return new String(answer, StandardCharsets.US_ASCII);
    }
  }
}
