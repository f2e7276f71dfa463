package io.antrean.coordinator.job;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The secret half of a lease: 128 random bits, new on every lease, given only to the worker that
 * took it (as 32 lowercase hex characters). Heartbeat, Complete, Fail and Release must echo it with
 * the fencing token, so a caller who learns the token (a counter) still cannot act on the lease.
 *
 * <p>The stores keep only its SHA-256 digest, like the token file keeps only token hashes: a lease
 * id read back from a store knows its digest, not its text. Two lease ids match when their digests
 * are equal, compared in constant time; so do the stores' SQL conditions, which compare digests
 * (whose timing reveals nothing usable to build a matching id). {@link #toString} never shows the
 * secret. Immutable and thread-safe.
 */
public final class LeaseId {
  /** Hex characters of a lease id's text. */
  public static final int TEXT_LENGTH = 32;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HexFormat HEX = HexFormat.of();

  @Nullable private final String text;
  private final byte[] sha256;

  private LeaseId(@Nullable String text, byte[] sha256) {
    this.text = text;
    this.sha256 = sha256;
  }

  /** A new random lease id. */
  public static LeaseId generate() {
    byte[] bits = new byte[TEXT_LENGTH / 2];
    RANDOM.nextBytes(bits);
    return of(HEX.formatHex(bits));
  }

  /**
   * The lease id a caller presented.
   *
   * @throws IllegalArgumentException unless {@code text} is 32 hex characters
   */
  public static LeaseId parse(String text) {
    Objects.requireNonNull(text, "text");
    if (!isWellFormed(text)) {
      throw new IllegalArgumentException("a lease id is " + TEXT_LENGTH + " hex characters");
    }
    return of(text.toLowerCase(java.util.Locale.ROOT));
  }

  /** Whether {@code text} has the form of a lease id (32 hex characters). */
  public static boolean isWellFormed(String text) {
    if (text.length() != TEXT_LENGTH) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (Character.digit(text.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  /** A lease id as a store keeps it: its digest only. */
  public static LeaseId stored(byte[] sha256) {
    if (sha256.length != 32) {
      throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, got " + sha256.length);
    }
    return new LeaseId(null, sha256.clone());
  }

  private static LeaseId of(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII));
      return new LeaseId(text, digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /**
   * The text handed to the worker.
   *
   * @throws IllegalStateException for a lease id read back from a store, which keeps no text
   */
  public String text() {
    if (text == null) {
      throw new IllegalStateException("a stored lease id keeps only its digest");
    }
    return text;
  }

  /** The SHA-256 digest of the text, as the stores keep it; a new array. */
  public byte[] sha256() {
    return sha256.clone();
  }

  /** Whether the other is the same lease id, compared in constant time; false for null. */
  public boolean matches(@Nullable LeaseId other) {
    return other != null && MessageDigest.isEqual(sha256, other.sha256);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LeaseId other && matches(other);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(sha256);
  }

  @Override
  public String toString() {
    return "LeaseId[redacted]";
  }
}
