package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.JobState;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Retention: deleting finished jobs past their keep time and forgetting expired idempotency keys,
 * in bounded batches that walk an index from its oldest end ({@code jobs_finished}, {@code
 * idempotency_keys_expiry}). Rows are picked with {@code FOR UPDATE SKIP LOCKED}, so coordinators
 * running retention at the same time share the work instead of waiting for each other, and a key an
 * enqueue is taking over right now is left to it.
 *
 * <p>Deleting a job cascades (foreign keys) to its attempts and its idempotency key: a key of a
 * deleted job could never deduplicate again, so keeping it until its expiry would only cost space.
 */
final class RetentionWrites {
  static final String DELETE_FINISHED =
      "WITH doomed AS MATERIALIZED (SELECT id FROM jobs WHERE state = ? AND finished_at < ?"
          + " ORDER BY finished_at, id LIMIT ? FOR UPDATE SKIP LOCKED)"
          + " DELETE FROM jobs USING doomed WHERE jobs.id = doomed.id";
  static final String FORGET_KEYS =
      "WITH doomed AS MATERIALIZED (SELECT queue, key FROM idempotency_keys"
          + " WHERE expires_at <= ? ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED)"
          + " DELETE FROM idempotency_keys AS k USING doomed"
          + " WHERE k.queue = doomed.queue AND k.key = doomed.key";

  private RetentionWrites() {}

  /** Deletes up to {@code limit} jobs in {@code state} finished before the cutoff, oldest first. */
  static int deleteFinished(Tx tx, JobState state, Instant finishedBefore, int limit)
      throws SQLException {
    PreparedStatement delete = tx.prepare(DELETE_FINISHED);
    delete.setString(1, state.name());
    Timestamps.setCeil(delete, 2, finishedBefore);
    delete.setInt(3, limit);
    return delete.executeUpdate();
  }

  /** Deletes up to {@code limit} keys that expired at or before {@code now}, oldest first. */
  static int forgetExpiredKeys(Tx tx, Instant now, int limit) throws SQLException {
    PreparedStatement delete = tx.prepare(FORGET_KEYS);
    // Truncated like every stored time, so a key expiring within now's microsecond has expired
    // here exactly when enqueue treats it as free.
    Timestamps.set(delete, 1, now);
    delete.setInt(2, limit);
    return delete.executeUpdate();
  }
}
