package io.antrean.coordinator;

import io.antrean.coordinator.security.Authenticator;
import io.antrean.coordinator.security.ExposureCheck;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.ServerTls;
import io.grpc.InsecureServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * The coordinator's security options (a picocli mixin) and what they open: the token file, TLS from
 * PEM files (both re-read when they change), and the secure-by-default check. Closing stops the
 * re-reading.
 */
final class SecurityOptions implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SecurityOptions.class);
  private static final Duration RELOAD_INTERVAL = Duration.ofSeconds(5);

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "Bearer tokens (hashes only) with their roles and queues; every call must then present"
              + " one. Create entries with 'antrean token create'. Re-read when it changes.")
  Path tokenFile;

  @Option(
      names = "--tls-cert",
      paramLabel = "PEM",
      description = "Certificate chain (PEM) for TLS on gRPC and HTTP; re-read when it changes.")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "PEM", description = "Private key (PEM) of --tls-cert.")
  Path tlsKey;

  @Option(
      names = "--tls-client-ca",
      paramLabel = "PEM",
      description =
          "CA certificates (PEM) that sign client certificates: gRPC then requires mutual TLS, and"
              + " a client without a token is the identity its certificate's common name names.")
  Path tlsClientCa;

  @Option(
      names = "--insecure",
      description =
          "Allow listening on a non-loopback address without TLS or without --token-file. Anyone"
              + " who reaches the port can then do anything.")
  boolean insecure;

  @Option(names = "--no-reflection", description = "Turn the gRPC reflection service off.")
  boolean noReflection;

  @Option(
      names = "--http-allowed-host",
      paramLabel = "NAME",
      description =
          "A name (or address) browsers use to reach the HTTP API and dashboard; its Host and"
              + " Origin are accepted. Loopback names always are. Repeatable.")
  List<String> httpAllowedHosts = new ArrayList<>();

  private ScheduledExecutorService timer;
  @Nullable private ServerTls tls;

  /**
   * Opens the token file and the TLS files, and checks the binding is allowed.
   *
   * @throws IllegalArgumentException for options that do not go together or files that cannot be
   *     used
   * @throws IllegalStateException when the coordinator would be exposed without TLS and
   *     authentication
   */
  SecurityConfig open(String grpcHost, String httpHost) {
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (tlsClientCa != null && tlsCert == null) {
      throw new IllegalArgumentException("--tls-client-ca needs --tls-cert and --tls-key");
    }
    ExposureCheck.Verdict verdict =
        ExposureCheck.check(tlsCert != null, tokenFile != null, insecure, grpcHost, httpHost);
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "antrean-credentials-reload");
              t.setDaemon(true);
              return t;
            });
    Authenticator authenticator = null;
    if (tokenFile != null) {
      authenticator = Authenticator.fromFile(tokenFile);
      Authenticator reloaded = authenticator;
      timer.scheduleWithFixedDelay(
          reloaded::reloadIfChanged,
          RELOAD_INTERVAL.toMillis(),
          RELOAD_INTERVAL.toMillis(),
          TimeUnit.MILLISECONDS);
      log.info("authentication on: {} identities from {}", authenticator.identities(), tokenFile);
    }
    if (tlsCert != null) {
      tls = ServerTls.fromFiles(tlsCert, tlsKey, tlsClientCa, RELOAD_INTERVAL, timer);
      log.info("TLS on ({})", tls.mutual() ? "mutual: client certificates required" : "server");
    }
    String warning = null;
    switch (verdict) {
      case LOOPBACK_DEV_MODE ->
          log.warn(
              "dev mode: {} on loopback only; do not expose this coordinator as it is",
              tlsCert == null && tokenFile == null
                  ? "no TLS and no authentication"
                  : tlsCert == null ? "no TLS" : "no authentication");
      case EXPOSED_INSECURE -> {
        warning =
            "exposed without "
                + (tlsCert == null ? "TLS" : "")
                + (tlsCert == null && tokenFile == null ? " and " : "")
                + (tokenFile == null ? "authentication" : "")
                + " (--insecure): anyone who reaches the ports can read and change every job";
        log.warn("INSECURE: {}", warning);
      }
      case SECURE -> {}
    }
    return new SecurityConfig(
        authenticator,
        tls == null ? null : tls.httpContext(),
        !noReflection,
        Set.copyOf(httpAllowedHosts),
        warning);
  }

  /** A gRPC server builder for {@code address}: TLS when configured, else plaintext. */
  NettyServerBuilder grpcServer(InetSocketAddress address) {
    return NettyServerBuilder.forAddress(
        address, tls == null ? InsecureServerCredentials.create() : tls.grpcCredentials());
  }

  @Override
  public void close() {
    if (tls != null) {
      tls.close();
    }
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
