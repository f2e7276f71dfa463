package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.JobState;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Retention: deleting finished jobs past their keep time and forgetting expired idempotency keys.
 * Runs on the writer thread in bounded batches, each walking an index from its oldest end ({@code
 * jobs_finished}, {@code idempotency_keys_expiry}), so a batch costs the same however large the
 * tables are and never holds the writer for long.
 *
 * <p>Deleting a job cascades (foreign keys) to its attempts and its idempotency key: a key of a
 * deleted job could never deduplicate again, so keeping it until its expiry would only cost space.
 */
final class RetentionWrites {
  static final String SELECT_FINISHED =
      "SELECT id FROM jobs INDEXED BY jobs_finished WHERE state = ? AND finished_at < ?"
          + " ORDER BY finished_at, id LIMIT ?";
  static final String SELECT_EXPIRED_KEYS =
      "SELECT queue, key FROM idempotency_keys INDEXED BY idempotency_keys_expiry"
          + " WHERE expires_at <= ? ORDER BY expires_at LIMIT ?";
  private static final String DELETE_FINISHED =
      "DELETE FROM jobs WHERE id IN (" + SELECT_FINISHED + ")";
  private static final String FORGET_KEYS =
      "DELETE FROM idempotency_keys WHERE (queue, key) IN (" + SELECT_EXPIRED_KEYS + ")";

  private RetentionWrites() {}

  /** Deletes up to {@code limit} jobs in {@code state} finished before the cutoff, oldest first. */
  static int deleteFinished(
      CachedConnection connection, JobState state, Instant finishedBefore, int limit)
      throws SQLException {
    PreparedStatement delete = connection.prepare(DELETE_FINISHED);
    delete.setString(1, state.name());
    delete.setLong(2, Micros.ceil(finishedBefore));
    delete.setInt(3, limit);
    return delete.executeUpdate();
  }

  /** Deletes up to {@code limit} keys that expired at or before {@code now}, oldest first. */
  static int forgetExpiredKeys(CachedConnection connection, Instant now, int limit)
      throws SQLException {
    PreparedStatement delete = connection.prepare(FORGET_KEYS);
    // The comparison enqueue makes: a key is forgotten exactly when enqueue treats it as free.
    delete.setLong(1, Micros.of(now));
    delete.setInt(2, limit);
    return delete.executeUpdate();
  }
}
