package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.RateLimit;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The limits columns of the {@code queues} table and the per-key token buckets in {@code
 * rate_buckets}, the same SQL for both stores. A queue gets a row the first time it is paused or
 * limited; removing its limits sets them back to NULL. Setting a queue's limits refills its
 * buckets.
 */
public final class QueueRows {
  private static final String LIMIT_COLUMNS =
      "max_running, max_running_per_key, rate_starts, rate_interval_micros,"
          + " rate_per_key_starts, rate_per_key_interval_micros";
  private static final String SET_LIMITS =
      "INSERT INTO queues (name, "
          + LIMIT_COLUMNS
          + ", rate_tokens, rate_refilled_at_micros) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL)"
          + " ON CONFLICT (name) DO UPDATE SET max_running = excluded.max_running,"
          + " max_running_per_key = excluded.max_running_per_key,"
          + " rate_starts = excluded.rate_starts,"
          + " rate_interval_micros = excluded.rate_interval_micros,"
          + " rate_per_key_starts = excluded.rate_per_key_starts,"
          + " rate_per_key_interval_micros = excluded.rate_per_key_interval_micros,"
          + " rate_tokens = NULL, rate_refilled_at_micros = NULL";
  // Parameters: queue, now (epoch micros), tokens per micro.
  private static final String EMPTY_KEY_BUCKETS =
      "SELECT tokens, refilled_at_micros FROM rate_buckets WHERE queue = ?"
          + " AND tokens + (? - refilled_at_micros) * ? < 1";

  private static final String FORGET_KEY_BUCKETS = "DELETE FROM rate_buckets WHERE queue = ?";
  private static final String LIMITED =
      "SELECT name, "
          + LIMIT_COLUMNS
          + " FROM queues WHERE max_running IS NOT NULL OR max_running_per_key IS NOT NULL"
          + " OR rate_starts IS NOT NULL OR rate_per_key_starts IS NOT NULL ORDER BY name";
  private static final String FOR_LEASE =
      "SELECT paused_at IS NOT NULL, "
          + LIMIT_COLUMNS
          + ", rate_tokens, rate_refilled_at_micros FROM queues WHERE name = ?";
  private static final String SAVE_QUEUE_BUCKET =
      "UPDATE queues SET rate_tokens = ?, rate_refilled_at_micros = ? WHERE name = ?";
  private static final String KEY_BUCKET =
      "SELECT tokens, refilled_at_micros FROM rate_buckets"
          + " WHERE queue = ? AND concurrency_key = ?";
  private static final String SAVE_KEY_BUCKET =
      "INSERT INTO rate_buckets (queue, concurrency_key, tokens, refilled_at_micros)"
          + " VALUES (?, ?, ?, ?) ON CONFLICT (queue, concurrency_key)"
          + " DO UPDATE SET tokens = excluded.tokens, refilled_at_micros = excluded.refilled_at_micros";

  /**
   * What a lease needs to know of its queue before it picks jobs.
   *
   * @param bucket the queue's rate bucket as last written; null when never used (full)
   */
  public record ForLease(boolean paused, QueueLimits limits, @Nullable TokenBucket bucket) {
    static final ForLease UNKNOWN_QUEUE = new ForLease(false, QueueLimits.NONE, null);
  }

  private QueueRows() {}

  /** The statement of {@link #readForLease}, with {@code locking} appended (a row lock or ""). */
  public static String forLeaseSql(String locking) {
    return FOR_LEASE + locking;
  }

  /** Runs a statement of {@link #forLeaseSql} for the queue. */
  public static ForLease readForLease(PreparedStatement select, String queue) throws SQLException {
    select.setString(1, queue);
    try (ResultSet row = select.executeQuery()) {
      if (!row.next()) {
        return ForLease.UNKNOWN_QUEUE;
      }
      double tokens = row.getDouble(8);
      TokenBucket bucket = row.wasNull() ? null : new TokenBucket(tokens, row.getLong(9));
      return new ForLease(row.getBoolean(1), limits(row, 2), bucket);
    }
  }

  /** Sets the queue's limits (NONE clears them) and refills its buckets. */
  public static void setLimits(JdbcSession session, String queue, QueueLimits limits)
      throws SQLException {
    PreparedStatement change = session.prepare(SET_LIMITS);
    change.setString(1, queue);
    setInteger(change, 2, limits.maxRunning());
    setInteger(change, 3, limits.maxRunningPerKey());
    setRate(change, 4, limits.rate());
    setRate(change, 6, limits.ratePerKey());
    change.executeUpdate();
    PreparedStatement forget = session.prepare(FORGET_KEY_BUCKETS);
    forget.setString(1, queue);
    forget.executeUpdate();
  }

  /** The queues with any limit, by name. */
  public static SortedMap<String, QueueLimits> limited(JdbcSession session) throws SQLException {
    SortedMap<String, QueueLimits> limited = new TreeMap<>();
    try (ResultSet rows = session.prepare(LIMITED).executeQuery()) {
      while (rows.next()) {
        limited.put(rows.getString(1), limits(rows, 2));
      }
    }
    return limited;
  }

  static void saveQueueBucket(JdbcSession session, String queue, TokenBucket bucket)
      throws SQLException {
    PreparedStatement save = session.prepare(SAVE_QUEUE_BUCKET);
    save.setDouble(1, bucket.tokens());
    save.setLong(2, bucket.refilledAtMicros());
    save.setString(3, queue);
    save.executeUpdate();
  }

  /** The key's bucket as last written, or null when it was never used (full). */
  @Nullable
  static TokenBucket keyBucket(JdbcSession session, String queue, String key) throws SQLException {
    PreparedStatement select = session.prepare(KEY_BUCKET);
    select.setString(1, queue);
    select.setString(2, key);
    try (ResultSet row = select.executeQuery()) {
      return row.next() ? new TokenBucket(row.getDouble(1), row.getLong(2)) : null;
    }
  }

  /**
   * The earliest time, in epoch microseconds, at which one of the queue's per-key buckets that is
   * empty at {@code nowMicros} holds a whole token again; {@link Long#MAX_VALUE} if none is empty.
   */
  static long nextKeyTokenMicros(JdbcSession session, String queue, RateLimit rate, long nowMicros)
      throws SQLException {
    PreparedStatement select = session.prepare(EMPTY_KEY_BUCKETS);
    select.setString(1, queue);
    select.setLong(2, nowMicros);
    select.setDouble(3, rate.tokensPerMicro());
    long earliest = Long.MAX_VALUE;
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        TokenBucket bucket =
            new TokenBucket(rows.getDouble(1), rows.getLong(2)).refill(rate, nowMicros);
        earliest = Math.min(earliest, bucket.nextWholeAtMicros(rate));
      }
    }
    return earliest;
  }

  static void saveKeyBucket(JdbcSession session, String queue, String key, TokenBucket bucket)
      throws SQLException {
    PreparedStatement save = session.prepare(SAVE_KEY_BUCKET);
    save.setString(1, queue);
    save.setString(2, key);
    save.setDouble(3, bucket.tokens());
    save.setLong(4, bucket.refilledAtMicros());
    save.executeUpdate();
  }

  /** The six limit columns from {@code first} on. */
  private static QueueLimits limits(ResultSet row, int first) throws SQLException {
    return new QueueLimits(
        integer(row, first), integer(row, first + 1), rate(row, first + 2), rate(row, first + 4));
  }

  @Nullable
  private static RateLimit rate(ResultSet row, int startsColumn) throws SQLException {
    Integer starts = integer(row, startsColumn);
    if (starts == null) {
      return null;
    }
    return new RateLimit(starts, Duration.ofNanos(row.getLong(startsColumn + 1) * 1_000));
  }

  @Nullable
  private static Integer integer(ResultSet row, int column) throws SQLException {
    int value = row.getInt(column);
    return row.wasNull() ? null : value;
  }

  private static void setInteger(PreparedStatement statement, int index, @Nullable Integer value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.INTEGER);
    } else {
      statement.setInt(index, value);
    }
  }

  private static void setRate(PreparedStatement statement, int index, @Nullable RateLimit rate)
      throws SQLException {
    if (rate == null) {
      statement.setNull(index, Types.INTEGER);
      statement.setNull(index + 1, Types.BIGINT);
    } else {
      statement.setInt(index, rate.starts());
      statement.setLong(index + 1, rate.intervalMicros());
    }
  }
}
