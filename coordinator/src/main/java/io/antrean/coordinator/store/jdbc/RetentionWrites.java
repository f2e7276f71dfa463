package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.JobState;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Retention: deleting finished jobs past their keep time and forgetting expired idempotency keys,
 * in bounded batches that walk an index from its oldest end ({@code jobs_finished}, {@code
 * idempotency_keys_expiry}), so a batch costs the same however large the tables are. Rows are
 * picked with the dialect's {@link JdbcDialect#lockRowsSkipLocked}: coordinators running retention
 * at the same time share the work instead of waiting for each other, and a key an enqueue is taking
 * over right now is left to it.
 *
 * <p>Deleting a job deletes its attempts (on SQLite by its foreign key's cascade, on PostgreSQL by
 * a trigger, migration V17) and its idempotency key (a foreign key's cascade): a key of a deleted
 * job could never deduplicate again, so keeping it until its expiry would only cost space.
 */
public final class RetentionWrites {
  private RetentionWrites() {}

  /** The jobs a batch deletes; parameters: state, cutoff, limit. */
  public static String selectFinishedSql(JdbcDialect dialect) {
    return "SELECT id FROM jobs"
        + dialect.indexHint("jobs_finished")
        + " WHERE state = ? AND finished_at < ? ORDER BY finished_at, id LIMIT ?"
        + dialect.lockRowsSkipLocked();
  }

  /** The keys a batch forgets; parameters: now, limit. */
  public static String selectExpiredKeysSql(JdbcDialect dialect) {
    return "SELECT queue, key FROM idempotency_keys"
        + dialect.indexHint("idempotency_keys_expiry")
        + " WHERE expires_at <= ? ORDER BY expires_at LIMIT ?"
        + dialect.lockRowsSkipLocked();
  }

  /**
   * The batch is picked once, in a materialized common table expression: as a plain {@code IN
   * (SELECT ... LIMIT ? FOR UPDATE SKIP LOCKED)} PostgreSQL may evaluate the subquery more than
   * once while rows change under it and delete more than {@code limit} rows.
   */
  public static String deleteFinishedSql(JdbcDialect dialect) {
    return "WITH doomed AS MATERIALIZED ("
        + selectFinishedSql(dialect)
        + ") DELETE FROM jobs WHERE id IN (SELECT id FROM doomed)";
  }

  /** Like {@link #deleteFinishedSql}, the batch of keys is picked once. */
  public static String forgetKeysSql(JdbcDialect dialect) {
    return "WITH doomed AS MATERIALIZED ("
        + selectExpiredKeysSql(dialect)
        + ") DELETE FROM idempotency_keys WHERE (queue, key) IN (SELECT queue, key FROM doomed)";
  }

  /** Deletes up to {@code limit} jobs in {@code state} finished before the cutoff, oldest first. */
  public static int deleteFinished(
      JdbcSession session, JobState state, Instant finishedBefore, int limit) throws SQLException {
    JdbcDialect dialect = session.dialect();
    PreparedStatement delete = session.prepare(deleteFinishedSql(dialect));
    delete.setString(1, state.name());
    dialect.setInstant(delete, 2, dialect.ceil(finishedBefore));
    delete.setInt(3, limit);
    return delete.executeUpdate();
  }

  /** Deletes up to {@code limit} keys that expired at or before {@code now}, oldest first. */
  public static int forgetExpiredKeys(JdbcSession session, Instant now, int limit)
      throws SQLException {
    PreparedStatement delete = session.prepare(forgetKeysSql(session.dialect()));
    // Cut like every stored time, so a key is forgotten exactly when enqueue treats it as free.
    session.dialect().setInstant(delete, 1, now);
    delete.setInt(2, limit);
    return delete.executeUpdate();
  }
}
