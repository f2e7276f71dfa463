package io.antrean.coordinator.security;

import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * The coordinator's TLS from PEM files: its certificate chain and key, and optionally the CA that
 * signs client certificates (mutual TLS; gRPC then requires one, and its subject's common name is
 * the caller's identity). One key manager and one trust manager serve gRPC and HTTPS alike, and
 * {@link PemFiles} reloads them when the files change (checked every {@code refresh}), so a renewed
 * certificate is served from the next handshake without a restart. Thread-safe.
 */
public final class ServerTls implements AutoCloseable {
  private final AdvancedTlsX509KeyManager keys;
  @Nullable private final AdvancedTlsX509TrustManager clientCas;
  private final List<AutoCloseable> refreshers;

  private ServerTls(
      AdvancedTlsX509KeyManager keys,
      @Nullable AdvancedTlsX509TrustManager clientCas,
      List<AutoCloseable> refreshers) {
    this.keys = keys;
    this.clientCas = clientCas;
    this.refreshers = refreshers;
  }

  /**
   * Reads the files now and schedules their re-reading on {@code timer}.
   *
   * @throws IllegalArgumentException naming the file that cannot be used
   */
  public static ServerTls fromFiles(
      Path certificate,
      Path privateKey,
      @Nullable Path clientCa,
      Duration refresh,
      ScheduledExecutorService timer) {
    AdvancedTlsX509KeyManager keys = new AdvancedTlsX509KeyManager();
    AdvancedTlsX509TrustManager trust = null;
    if (clientCa != null) {
      try {
        trust =
            AdvancedTlsX509TrustManager.newBuilder()
                .setVerification(
                    AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION)
                .build();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("cannot build a trust manager", e);
      }
    }
    PemFiles files;
    try {
      files = new PemFiles(certificate, privateKey, clientCa, keys, trust);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot use --tls-cert "
              + certificate
              + " with --tls-key "
              + privateKey
              + (clientCa == null ? "" : " and --tls-client-ca " + clientCa)
              + ": "
              + e,
          e);
    }
    ScheduledFuture<?> reload =
        timer.scheduleWithFixedDelay(
            files::reloadIfChanged, refresh.toMillis(), refresh.toMillis(), TimeUnit.MILLISECONDS);
    return new ServerTls(keys, trust, List.of(() -> reload.cancel(false)));
  }

  /** True when clients must present a certificate signed by the client CA. */
  public boolean mutual() {
    return clientCas != null;
  }

  /** For the gRPC server builder. */
  public ServerCredentials grpcCredentials() {
    TlsServerCredentials.Builder b = TlsServerCredentials.newBuilder().keyManager(keys);
    if (clientCas != null) {
      b.trustManager(clientCas).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    return b.build();
  }

  /**
   * For the HTTPS server. It asks for no client certificate: browsers and scripts authenticate with
   * tokens there.
   */
  public SSLContext httpContext() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          new KeyManager[] {keys}, clientCas == null ? null : new TrustManager[] {clientCas}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("TLS is part of every JDK", e);
    }
  }

  /** Stops re-reading the files. */
  @Override
  public void close() {
    for (AutoCloseable r : refreshers) {
      try {
        r.close();
      } catch (Exception e) {
        // Only cancels a scheduled task; nothing to report.
      }
    }
  }
}
