package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.NewJob;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** What an idempotency key remembers of the job it stored, to tell a repeat from a conflict. */
public final class Fingerprints {
  private Fingerprints() {}

  /**
   * SHA-256 over the type's length, the type and the payload, so no two pairs collide by design.
   * Two enqueues with one key are the same job exactly when their fingerprints are equal.
   */
  public static byte[] of(NewJob job) {
    byte[] type = job.type().getBytes(StandardCharsets.UTF_8);
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(type.length).array());
      digest.update(type);
      digest.update(job.payload());
      return digest.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
