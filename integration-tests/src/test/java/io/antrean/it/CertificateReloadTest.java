package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.Coordinator;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.http.HttpEndpoint;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.ServerTls;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificates are reloaded without a restart: a coordinator started with certificate A, whose PEM
 * files are then replaced by certificate B, serves B on the next TLS handshake, on gRPC and on
 * HTTPS alike (one {@link ServerTls} key manager serves both). In-process, with the files re-read
 * every 100 ms instead of every 5 s; each probe is a fresh TLS client, so no session is resumed.
 */
@Timeout(60)
class CertificateReloadTest {
  private static final Duration REFRESH = Duration.ofMillis(100);
  @TempDir Path dir;
  private TestCertificates certificates;
  private Path certFile;
  private Path keyFile;
  private ScheduledExecutorService timer;
  private ServerTls tls;
  private Coordinator coordinator;

  @BeforeEach
  void start() throws Exception {
    certificates = new TestCertificates(dir);
    TestCertificates.Pem a = certificates.issue("coord-a");
    certFile = dir.resolve("served.pem");
    keyFile = dir.resolve("served.key");
    Files.copy(a.certificate(), certFile);
    Files.copy(a.key(), keyFile);
    timer = Executors.newSingleThreadScheduledExecutor();
    tls = ServerTls.fromFiles(certFile, keyFile, null, REFRESH, timer);
    coordinator =
        Coordinator.start(
            SqliteJobStore.open(dir.resolve("data"), SqliteOptions.defaults()),
            Settings.defaults(),
            Clock.systemUTC(),
            NettyServerBuilder.forAddress(
                new InetSocketAddress("127.0.0.1", 0), tls.grpcCredentials()),
            new HttpEndpoint("127.0.0.1", 0),
            new SecurityConfig(null, tls.httpContext(), true, Set.of(), null));
  }

  @AfterEach
  void stop() {
    if (coordinator != null) {
      coordinator.close();
    }
    tls.close();
    timer.shutdownNow();
  }

  @Test
  void replacedCertificateFilesAreServedOnTheNextHandshakeOfGrpcAndHttps() throws Exception {
    assertThat(servedName(coordinator.port(), "h2")).isEqualTo("CN=coord-a");
    assertThat(servedName(coordinator.httpPort(), "http/1.1")).isEqualTo("CN=coord-a");
    assertThat(healthOverTls()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);

    TestCertificates.Pem b = certificates.issue("coord-b");
    replace(b.key(), keyFile);
    replace(b.certificate(), certFile);

    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptions()
        .untilAsserted(
            () ->
                assertThat(servedName(coordinator.httpPort(), "http/1.1")).isEqualTo("CN=coord-b"));
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptions()
        .untilAsserted(
            () -> assertThat(servedName(coordinator.port(), "h2")).isEqualTo("CN=coord-b"));
    assertThat(healthOverTls())
        .as("a gRPC call over the reloaded certificate")
        .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
  }

  /** Moves a copy into place in one step, as a certificate manager would. */
  private static void replace(Path source, Path target) throws Exception {
    Path temporary = target.resolveSibling(target.getFileName() + ".new");
    Files.copy(source, temporary, StandardCopyOption.REPLACE_EXISTING);
    Files.move(
        temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** A new TLS handshake with the port: the subject of the certificate it serves. */
  private String servedName(int port, String protocol) throws Exception {
    SSLContext client = SSLContext.getInstance("TLS");
    client.init(null, trustingTheCa().getTrustManagers(), null);
    try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(5_000);
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setApplicationProtocols(new String[] {protocol});
      socket.setSSLParameters(parameters);
      socket.startHandshake();
      X509Certificate served = (X509Certificate) socket.getSession().getPeerCertificates()[0];
      return served.getSubjectX500Principal().getName();
    }
  }

  private HealthCheckResponse.ServingStatus healthOverTls() throws Exception {
    ManagedChannel channel =
        Grpc.newChannelBuilderForAddress(
                "localhost",
                coordinator.port(),
                TlsChannelCredentials.newBuilder()
                    .trustManager(certificates.caFile().toFile())
                    .build())
            .build();
    try {
      return HealthGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .check(HealthCheckRequest.getDefaultInstance())
          .getStatus();
    } finally {
      channel.shutdownNow();
    }
  }

  private TrustManagerFactory trustingTheCa() throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    try (InputStream in = Files.newInputStream(certificates.caFile())) {
      store.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return factory;
  }
}
