package io.antrean.channel;

import io.grpc.CallCredentials;
import io.grpc.ChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Metadata;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import javax.annotation.Nullable;

/**
 * How a client or worker proves itself to coordinators: TLS that trusts a given CA (and, for mutual
 * TLS, presents a client certificate), and a bearer token sent as {@code authorization: Bearer ...}
 * metadata on every call. Immutable and thread-safe; the token never appears in {@link
 * #toString()}.
 */
public final class ChannelSecurity {
  /** The environment variable a token is read from when no token file is given. */
  public static final String TOKEN_ENV = "ANTREAN_TOKEN";

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  @Nullable private final Path caFile;
  @Nullable private final Path certFile;
  @Nullable private final Path keyFile;
  @Nullable private final String token;

  private ChannelSecurity(
      @Nullable Path caFile,
      @Nullable Path certFile,
      @Nullable Path keyFile,
      @Nullable String token) {
    this.caFile = caFile;
    this.certFile = certFile;
    this.keyFile = keyFile;
    this.token = token;
  }

  /** Plaintext and no token: what a coordinator in dev mode on loopback accepts. */
  public static ChannelSecurity none() {
    return new ChannelSecurity(null, null, null, null);
  }

  /**
   * From command-line style options.
   *
   * @param caFile PEM CA certificates to trust; TLS is on when given
   * @param certFile PEM client certificate chain for mutual TLS, with {@code keyFile}
   * @param tokenFile a file holding the bearer token; without it the token comes from {@value
   *     #TOKEN_ENV} in {@code env}, if set
   * @throws IllegalArgumentException when only one of certificate and key is given, a client
   *     certificate is given without a CA, or the token file cannot be read
   */
  public static ChannelSecurity of(
      @Nullable Path caFile,
      @Nullable Path certFile,
      @Nullable Path keyFile,
      @Nullable Path tokenFile,
      Map<String, String> env) {
    if ((certFile == null) != (keyFile == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (certFile != null && caFile == null) {
      throw new IllegalArgumentException("--tls-cert needs --tls-ca");
    }
    String token = env.get(TOKEN_ENV);
    if (tokenFile != null) {
      try {
        token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "cannot read --token-file " + tokenFile + ": " + e.getMessage(), e);
      }
    }
    if (token != null && token.isBlank()) {
      token = null;
    }
    return new ChannelSecurity(caFile, certFile, keyFile, token);
  }

  /** This with {@code token} as the bearer token. */
  public ChannelSecurity withToken(String token) {
    return new ChannelSecurity(caFile, certFile, keyFile, Objects.requireNonNull(token, "token"));
  }

  /** True when calls go over TLS. */
  public boolean tls() {
    return caFile != null;
  }

  /** The credentials to open a channel with: TLS (and the token) or plaintext (and the token). */
  ChannelCredentials channelCredentials() {
    ChannelCredentials transport;
    if (caFile == null) {
      transport = InsecureChannelCredentials.create();
    } else {
      try {
        TlsChannelCredentials.Builder tls =
            TlsChannelCredentials.newBuilder().trustManager(caFile.toFile());
        if (certFile != null) {
          tls.keyManager(certFile.toFile(), keyFile.toFile());
        }
        transport = tls.build();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the TLS files: " + e.getMessage(), e);
      }
    }
    return token == null
        ? transport
        : CompositeChannelCredentials.create(transport, new BearerToken(token));
  }

  @Override
  public String toString() {
    return "ChannelSecurity{tls="
        + tls()
        + ", mutual="
        + (certFile != null)
        + ", token="
        + (token == null ? "none" : "set")
        + "}";
  }

  /** Sends the token on every call, also over plaintext (loopback dev mode). */
  private static final class BearerToken extends CallCredentials {
    private final String value;

    BearerToken(String token) {
      this.value = "Bearer " + token;
    }

    @Override
    public void applyRequestMetadata(
        RequestInfo requestInfo, Executor appExecutor, MetadataApplier applier) {
      Metadata headers = new Metadata();
      headers.put(AUTHORIZATION, value);
      applier.apply(headers);
    }
  }
}
