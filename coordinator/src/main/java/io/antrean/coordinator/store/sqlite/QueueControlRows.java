package io.antrean.coordinator.store.sqlite;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code queues} table: which queues are paused and since when. A queue gets a row the first
 * time it is paused; resuming clears its {@code paused_at} and keeps the row.
 */
final class QueueControlRows {
  private static final String PAUSE =
      "INSERT INTO queues (name, paused_at) VALUES (?, ?)"
          + " ON CONFLICT (name) DO UPDATE SET paused_at = coalesce(paused_at, excluded.paused_at)";
  private static final String RESUME = "UPDATE queues SET paused_at = NULL WHERE name = ?";
  private static final String PAUSED =
      "SELECT name, paused_at FROM queues WHERE paused_at IS NOT NULL ORDER BY name";

  private QueueControlRows() {}

  /** Runs on the writer thread. */
  static Void setPaused(CachedConnection connection, String queue, boolean paused, Instant now)
      throws SQLException {
    PreparedStatement change = connection.prepare(paused ? PAUSE : RESUME);
    change.setString(1, queue);
    if (paused) {
      change.setLong(2, Micros.of(now));
    }
    change.executeUpdate();
    return null;
  }

  static SortedMap<String, Instant> paused(CachedConnection connection) throws SQLException {
    SortedMap<String, Instant> paused = new TreeMap<>();
    try (ResultSet rows = connection.prepare(PAUSED).executeQuery()) {
      while (rows.next()) {
        paused.put(rows.getString(1), Micros.toInstant(rows.getLong(2)));
      }
    }
    return paused;
  }
}
