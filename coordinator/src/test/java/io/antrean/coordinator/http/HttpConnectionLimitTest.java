package io.antrean.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server holds at most {@code maxConnections} connections: one more waits to be accepted until
 * a held one closes, then it is served.
 */
@Timeout(60)
class HttpConnectionLimitTest {
  private static final HttpServerLimits TWO_CONNECTIONS =
      new HttpServerLimits(
          Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(30), 2);

  @TempDir Path dir;
  private HttpApiFixture api;
  private final List<Socket> held = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    api = new HttpApiFixture(dir, TWO_CONNECTIONS);
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket s : held) {
      s.close();
    }
    api.close();
  }

  @Test
  void aConnectionPastTheLimitIsServedOnlyOnceAHeldOneCloses() throws Exception {
    for (int i = 0; i < 2; i++) {
      Socket s = connect();
      // A full exchange proves the server took this connection before the next one is opened.
      assertThat(exchange(s, false)).startsWith("HTTP/1.1 200");
      held.add(s);
    }

    CompletableFuture<String> third =
        CompletableFuture.supplyAsync(
            () -> {
              try (Socket s = connect()) {
                return exchange(s, true);
              } catch (IOException e) {
                return "failed: " + e;
              }
            });

    // Not a timing assertion on the server: the held connections stay open the whole second.
    assertThat(third)
        .failsWithin(1, TimeUnit.SECONDS)
        .withThrowableThat()
        .isInstanceOf(TimeoutException.class);
    held.remove(0).close();
    assertThat(third.get(20, TimeUnit.SECONDS)).startsWith("HTTP/1.1 200");
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", api.coordinator.httpPort()), 5_000);
    s.setSoTimeout(30_000);
    return s;
  }

  /** GET /healthz; reads the whole answer, or on a kept-alive connection its first bytes. */
  private static String exchange(Socket s, boolean close) throws IOException {
    String request =
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + (close ? "Connection: close\r\n" : "")
            + "\r\n";
    s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
    byte[] answer = close ? s.getInputStream().readAllBytes() : new byte[12];
    if (!close) {
      int n = s.getInputStream().readNBytes(answer, 0, answer.length);
      return new String(answer, 0, n, StandardCharsets.US_ASCII);
    }
    return new String(answer, StandardCharsets.US_ASCII);
  }
}
