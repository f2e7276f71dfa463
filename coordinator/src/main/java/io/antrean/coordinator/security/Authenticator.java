package io.antrean.coordinator.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the credentials of a call (an {@code authorization: Bearer} value, or the subject of a
 * verified client certificate) into an {@link Identity}, from a token file it re-reads when the
 * file changes ({@link #reloadIfChanged}, run on a timer). A file that became unreadable or invalid
 * is reported and the identities read before stay in force. Thread-safe.
 */
public final class Authenticator {
  private static final Logger log = LoggerFactory.getLogger(Authenticator.class);
  private static final String BEARER = "bearer ";

  private final Path file;
  private volatile BearerTokens tokens;
  private FileTime readModified;
  private long readSize;

  private Authenticator(Path file, BearerTokens tokens, FileTime modified, long size) {
    this.file = file;
    this.tokens = tokens;
    this.readModified = modified;
    this.readSize = size;
  }

  /**
   * Reads the token file now.
   *
   * @throws IllegalArgumentException naming the file and the fault
   */
  public static Authenticator fromFile(Path file) {
    Objects.requireNonNull(file, "file");
    try {
      FileTime modified = Files.getLastModifiedTime(file);
      long size = Files.size(file);
      return new Authenticator(file, TokenFile.read(file), modified, size);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read token file " + file + ": " + e, e);
    }
  }

  /** How many identities are in force. */
  public int identities() {
    return tokens.size();
  }

  /**
   * Re-reads the file if its modification time or size changed since the last read.
   *
   * @return true when new identities are in force
   */
  public synchronized boolean reloadIfChanged() {
    try {
      FileTime modified = Files.getLastModifiedTime(file);
      long size = Files.size(file);
      if (modified.equals(readModified) && size == readSize) {
        return false;
      }
      readModified = modified;
      readSize = size;
      tokens = TokenFile.read(file);
      log.info("token file {} reloaded: {} identities", file, tokens.size());
      return true;
    } catch (IOException | IllegalArgumentException e) {
      log.warn(
          "token file {} not reloaded, the identities read before stay: {}", file, e.getMessage());
      return false;
    }
  }

  /**
   * The caller's identity. A bearer token wins over a certificate: with mutual TLS the certificate
   * proves the machine, the token says which identity it acts as.
   *
   * @param authorization the {@code authorization} header or metadata value, or null
   * @param certificateName the common name of a verified client certificate, or null
   * @throws AccessDeniedException UNAUTHENTICATED when nothing or something unknown was presented
   */
  public Identity authenticate(@Nullable String authorization, @Nullable String certificateName) {
    if (authorization != null) {
      if (!authorization.toLowerCase(Locale.ROOT).startsWith(BEARER)) {
        throw AccessDeniedException.invalidCredentials();
      }
      return tokens
          .identify(authorization.substring(BEARER.length()).strip())
          .orElseThrow(AccessDeniedException::invalidCredentials);
    }
    if (certificateName != null) {
      Optional<Identity> named = tokens.named(certificateName);
      return named.orElseThrow(AccessDeniedException::invalidCredentials);
    }
    throw AccessDeniedException.missingCredentials();
  }
}
