package io.antrean.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.InFlightLimits;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP API over TLS from the {@link SecurityConfig}'s context: HTTPS answers, including JSON
 * errors, and a plaintext request gets no HTTP answer. The certificate is a self-signed one made by
 * the JDK's {@code keytool} for {@code localhost}.
 */
@Timeout(60)
class HttpsServingTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  @TempDir Path dir;
  private Coordinator coordinator;
  private HttpClient client;

  @BeforeEach
  void start() throws Exception {
    KeyStore keys = selfSigned(dir.resolve("server.p12"));
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, PASSWORD);
    SSLContext server = SSLContext.getInstance("TLS");
    server.init(kmf.getKeyManagers(), null, null);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(keys);
    SSLContext trusting = SSLContext.getInstance("TLS");
    trusting.init(null, tmf.getTrustManagers(), null);
    client =
        HttpClient.newBuilder().sslContext(trusting).connectTimeout(Duration.ofSeconds(10)).build();
    coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir, SqliteOptions.defaults()),
            Settings.defaults(),
            Clock.systemUTC(),
            InProcessServerBuilder.forName(InProcessServerBuilder.generateName()),
            new HttpEndpoint("127.0.0.1", 0),
            InFlightLimits.defaults(),
            new SecurityConfig(null, server, true, Set.of(), null));
  }

  @AfterEach
  void stop() {
    coordinator.close();
  }

  @Test
  void theApiIsServedOverTlsAndPlaintextGetsNoAnswer() throws Exception {
    HttpResponse<String> health = get("/healthz");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).contains("\"ok\"");
    HttpResponse<String> missing = get("/v1/nothing");
    HttpApiFixture.error(missing, 404, "ENDPOINT_NOT_FOUND");

    try (Socket plain = new Socket()) {
      plain.connect(new InetSocketAddress("127.0.0.1", coordinator.httpPort()), 5_000);
      plain.setSoTimeout(10_000);
      plain
          .getOutputStream()
          .write(
              "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.UTF_8));
      assertThat(readQuietly(plain.getInputStream())).doesNotContain("HTTP/1.1 200");
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("https://localhost:" + coordinator.httpPort() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String readQuietly(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return "";
    }
  }

  /** A PKCS12 store with one self-signed key for {@code localhost}, made by the JDK's keytool. */
  private static KeyStore selfSigned(Path file) throws Exception {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p =
        new ProcessBuilder(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-dname",
                "CN=localhost",
                "-ext",
                "san=dns:localhost,ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                file.toString(),
                "-storepass",
                new String(PASSWORD))
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD);
    }
    return store;
  }
}
