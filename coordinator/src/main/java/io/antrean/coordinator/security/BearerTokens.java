package io.antrean.coordinator.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The identities of a token file, looked up by the SHA-256 of a presented token.
 *
 * <p>Why a plain SHA-256 and not a slow password hash: every token is 256 bits from {@link
 * SecureRandom}, so nobody can guess one or run a dictionary against a stolen hash; a slow hash
 * only protects low-entropy secrets, and would cost milliseconds on every call. Every entry is
 * compared with {@link MessageDigest#isEqual}, in constant time, and all entries are compared, so
 * the time taken says nothing about which one (if any) matched. Immutable and thread-safe.
 */
public final class BearerTokens {
  /** What every token starts with, so a leaked one is easy to spot in a scan. */
  public static final String PREFIX = "antrean_";

  private static final int TOKEN_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** One identity and the hash of its token; null for an identity known only by certificate. */
  record Entry(Identity identity, @Nullable byte[] sha256) {}

  private final List<Entry> entries;

  BearerTokens(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /** The identity whose token this is, or empty. */
  public Optional<Identity> identify(String token) {
    byte[] presented = sha256(token);
    Identity found = null;
    for (Entry entry : entries) {
      if (entry.sha256() != null
          && MessageDigest.isEqual(entry.sha256(), presented)
          && found == null) {
        found = entry.identity();
      }
    }
    return Optional.ofNullable(found);
  }

  /** The identity of this name, or empty (for client certificates, whose subject names it). */
  public Optional<Identity> named(String name) {
    return entries.stream().map(Entry::identity).filter(i -> i.name().equals(name)).findFirst();
  }

  /** How many identities the file holds. */
  public int size() {
    return entries.size();
  }

  /** A new random token: the prefix and 256 random bits in URL-safe base64. */
  public static String newToken() {
    byte[] bytes = new byte[TOKEN_BYTES];
    RANDOM.nextBytes(bytes);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The lower-case hex SHA-256 of the token's UTF-8 bytes, as the token file stores it. */
  public static String hashHex(String token) {
    return HexFormat.of().formatHex(sha256(token));
  }

  static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
