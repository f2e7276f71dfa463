package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.store.QueueLimits;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The limits columns of the {@code queues} table, the same SQL for both stores. A queue gets a row
 * the first time it is paused or limited; removing its limits sets them back to NULL.
 */
public final class QueueRows {
  private static final String SET_LIMITS =
      "INSERT INTO queues (name, max_running, max_running_per_key) VALUES (?, ?, ?)"
          + " ON CONFLICT (name) DO UPDATE SET max_running = excluded.max_running,"
          + " max_running_per_key = excluded.max_running_per_key";
  private static final String LIMITED =
      "SELECT name, max_running, max_running_per_key FROM queues"
          + " WHERE max_running IS NOT NULL OR max_running_per_key IS NOT NULL ORDER BY name";
  private static final String FOR_LEASE =
      "SELECT paused_at IS NOT NULL, max_running, max_running_per_key FROM queues WHERE name = ?";

  /** What a lease needs to know of its queue before it picks jobs. */
  public record ForLease(boolean paused, QueueLimits limits) {
    static final ForLease UNKNOWN_QUEUE = new ForLease(false, QueueLimits.NONE);
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
      return new ForLease(row.getBoolean(1), new QueueLimits(integer(row, 2), integer(row, 3)));
    }
  }

  /** Sets the queue's limits (NONE clears them) through {@code statements}. */
  public static void setLimits(
      LimitedLeases.Statements statements, String queue, QueueLimits limits) throws SQLException {
    PreparedStatement change = statements.prepare(SET_LIMITS);
    change.setString(1, queue);
    setInteger(change, 2, limits.maxRunning());
    setInteger(change, 3, limits.maxRunningPerKey());
    change.executeUpdate();
  }

  /** The queues with any limit, by name. */
  public static SortedMap<String, QueueLimits> limited(LimitedLeases.Statements statements)
      throws SQLException {
    SortedMap<String, QueueLimits> limited = new TreeMap<>();
    try (ResultSet rows = statements.prepare(LIMITED).executeQuery()) {
      while (rows.next()) {
        limited.put(rows.getString(1), new QueueLimits(integer(rows, 2), integer(rows, 3)));
      }
    }
    return limited;
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
}
