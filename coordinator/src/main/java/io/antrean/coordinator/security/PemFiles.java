package io.antrean.coordinator.security;

import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import io.grpc.util.CertificateUtils;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's PEM files, loaded into grpc's key and trust managers, and loaded again by {@link
 * #reloadIfChanged} when a file's modification time changes. Our own re-read instead of grpc's
 * refreshing variants, which never re-read more often than once a minute whatever period they are
 * given. A certificate and key that do not belong together (caught between the two files of a swap)
 * are not loaded: the old pair keeps being served until the next check finds a matching pair. A
 * file that cannot be read is logged and the old material kept. {@link #reloadIfChanged} is meant
 * for one timer thread.
 */
final class PemFiles {
  private static final Logger log = LoggerFactory.getLogger(PemFiles.class);
  private static final byte[] CHALLENGE = "antrean key check".getBytes(StandardCharsets.US_ASCII);

  private final Path certificate;
  private final Path privateKey;
  @Nullable private final Path clientCa;
  private final AdvancedTlsX509KeyManager keys;
  @Nullable private final AdvancedTlsX509TrustManager trust;
  private List<FileTime> loaded;

  /**
   * Loads the files now.
   *
   * @throws IOException or GeneralSecurityException when a file cannot be used
   */
  PemFiles(
      Path certificate,
      Path privateKey,
      @Nullable Path clientCa,
      AdvancedTlsX509KeyManager keys,
      @Nullable AdvancedTlsX509TrustManager trust)
      throws IOException, GeneralSecurityException {
    this.certificate = certificate;
    this.privateKey = privateKey;
    this.clientCa = clientCa;
    this.keys = keys;
    this.trust = trust;
    this.loaded = times();
    if (!loadIdentity()) {
      throw new GeneralSecurityException(
          "the key in " + privateKey + " does not belong to the certificate in " + certificate);
    }
    if (trust != null) {
      trust.updateTrustCredentials(clientCa.toFile());
    }
  }

  /** Loads whatever changed since the last load; keeps the old material on any trouble. */
  void reloadIfChanged() {
    try {
      List<FileTime> now = times();
      if (now.equals(loaded)) {
        return;
      }
      if (!now.get(0).equals(loaded.get(0)) || !now.get(1).equals(loaded.get(1))) {
        if (!loadIdentity()) {
          return;
        }
        log.info("TLS certificate reloaded from {}", certificate);
      }
      if (trust != null && !now.get(2).equals(loaded.get(2))) {
        trust.updateTrustCredentials(clientCa.toFile());
        log.info("TLS client CA reloaded from {}", clientCa);
      }
      loaded = now;
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      log.warn("TLS files not reloaded, still serving the previous ones: {}", e.toString());
    }
  }

  /** Loads the certificate chain and key if they belong together; answers whether it did. */
  private boolean loadIdentity() throws IOException, GeneralSecurityException {
    X509Certificate[] chain;
    try (InputStream in = Files.newInputStream(certificate)) {
      chain = CertificateUtils.getX509Certificates(in);
    }
    PrivateKey key;
    try (InputStream in = Files.newInputStream(privateKey)) {
      key = CertificateUtils.getPrivateKey(in);
    }
    if (chain.length == 0) {
      throw new GeneralSecurityException("no certificate in " + certificate);
    }
    if (!belongTogether(chain[0].getPublicKey(), key)) {
      log.info(
          "TLS key {} does not match certificate {} (yet); not loaded", privateKey, certificate);
      return false;
    }
    keys.updateIdentityCredentials(chain, key);
    return true;
  }

  /** Whether the key signs what the certificate's public key verifies; true for unknown kinds. */
  static boolean belongTogether(PublicKey certified, PrivateKey key)
      throws GeneralSecurityException {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "EC" -> "SHA256withECDSA";
          case "RSA" -> "SHA256withRSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default -> null;
        };
    if (algorithm == null || !certified.getAlgorithm().equals(key.getAlgorithm())) {
      return algorithm == null;
    }
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(CHALLENGE);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(certified);
    verifier.update(CHALLENGE);
    return verifier.verify(signature);
  }

  private List<FileTime> times() throws IOException {
    List<FileTime> times = new ArrayList<>(3);
    times.add(Files.getLastModifiedTime(certificate));
    times.add(Files.getLastModifiedTime(privateKey));
    times.add(clientCa == null ? FileTime.fromMillis(0) : Files.getLastModifiedTime(clientCa));
    return times;
  }
}
