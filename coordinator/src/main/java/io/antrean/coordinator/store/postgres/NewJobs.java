package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.List;

/** What the store derives from a new job: its snapshot once stored, and its fingerprint. */
final class NewJobs {
  private NewJobs() {}

  /**
   * The job exactly as a read would return it right after the insert (times and backoffs cut to
   * microseconds), built here instead of read back so the payload does not travel twice.
   */
  static Job stored(long id, NewJob job, Instant now) {
    RetryPolicy policy = job.retryPolicy();
    Instant created = Timestamps.truncate(now);
    return new Job(
        id,
        job.queue(),
        job.type(),
        job.payload(),
        job.contentType(),
        job.priority(),
        Timestamps.truncate(job.runAt()),
        job.idempotencyKey(),
        new RetryPolicy(
            policy.maxAttempts(),
            Timestamps.truncate(policy.initialBackoff()),
            policy.multiplier(),
            Timestamps.truncate(policy.maxBackoff()),
            policy.maxLeaseExpiries()),
        0,
        0,
        JobState.PENDING,
        null,
        null,
        null,
        created,
        created,
        null,
        null,
        null,
        false,
        List.of());
  }

  /**
   * The advisory lock id of the job's idempotency key: 64 bits of SHA-256 over a namespace, the
   * queue and the key. Two keys sharing an id (vanishingly rare) only wait for each other.
   */
  static long keyLock(NewJob job) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update("antrean idempotency key\0".getBytes(StandardCharsets.UTF_8));
      byte[] queue = job.queue().getBytes(StandardCharsets.UTF_8);
      digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(queue.length).array());
      digest.update(queue);
      digest.update(job.idempotencyKey().getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest.digest()).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /**
   * SHA-256 over the type's length, the type and the payload, so no two pairs collide by design.
   * Two enqueues with one key are the same job exactly when their fingerprints are equal.
   */
  static byte[] fingerprint(NewJob job) {
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
