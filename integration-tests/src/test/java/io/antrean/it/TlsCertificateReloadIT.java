package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.channel.ChannelSecurity;
import io.antrean.channel.CoordinatorChannels;
import io.antrean.coordinator.security.ServerTls;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The coordinator's TLS serves a renewed certificate once its files change, without a restart. */
@Timeout(120)
class TlsCertificateReloadIT {
  @TempDir Path dir;

  @Test
  void aReplacedCertificateIsServedWithoutARestart() throws Exception {
    TestCertificates first = new TestCertificates(Files.createDirectories(dir.resolve("ca1")));
    TestCertificates second = new TestCertificates(Files.createDirectories(dir.resolve("ca2")));
    TestCertificates.Pem old = first.issue("coordinator");
    Path cert = dir.resolve("server.pem");
    Path key = dir.resolve("server.key");
    Files.copy(old.certificate(), cert);
    Files.copy(old.key(), key);
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    HealthStatusManager health = new HealthStatusManager();
    try (ServerTls tls = ServerTls.fromFiles(cert, key, null, Duration.ofMillis(200), timer)) {
      Server server =
          NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
              .sslContext(tls.grpcSslContext())
              .addService(health.getHealthService())
              .build()
              .start();
      try {
        String target = "127.0.0.1:" + server.getPort();
        assertThat(serves(target, first.caFile())).isTrue();
        assertThat(serves(target, second.caFile())).isFalse();

        TestCertificates.Pem renewed = second.issue("coordinator");
        Files.copy(renewed.key(), key, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(renewed.certificate(), cert, StandardCopyOption.REPLACE_EXISTING);

        Awaitility.await("the renewed certificate is served")
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> serves(target, second.caFile()));
        assertThat(serves(target, first.caFile())).isFalse();
      } finally {
        server.shutdownNow();
      }
    } finally {
      timer.shutdownNow();
    }
  }

  /** True when a client trusting only {@code ca} gets an answer. */
  private static boolean serves(String target, Path ca) throws InterruptedException {
    ManagedChannel channel =
        CoordinatorChannels.forTargets(target)
            .security(ChannelSecurity.of(ca, null, null, null, Map.of()))
            .build();
    try {
      return HealthGrpc.newBlockingStub(channel)
              .withDeadlineAfter(5, TimeUnit.SECONDS)
              .check(HealthCheckRequest.getDefaultInstance())
              .getStatus()
          == ServingStatus.SERVING;
    } catch (StatusRuntimeException e) {
      return false;
    } finally {
      channel.shutdownNow();
      channel.awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
