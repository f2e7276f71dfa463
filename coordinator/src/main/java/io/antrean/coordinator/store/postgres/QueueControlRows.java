package io.antrean.coordinator.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code queues} table: which queues are paused and since when. A queue gets a row the first
 * time it is paused; resuming clears its {@code paused_at} and keeps the row. Leases read the row
 * inside their own statement (see {@link LeaseWrites#pickSql}).
 */
final class QueueControlRows {
  private static final String PAUSE =
      "INSERT INTO queues (name, paused_at) VALUES (?, ?) ON CONFLICT (name)"
          + " DO UPDATE SET paused_at = coalesce(queues.paused_at, excluded.paused_at)";
  private static final String RESUME =
      "UPDATE queues SET paused_at = NULL WHERE name = ? AND paused_at IS NOT NULL";
  private static final String PAUSED =
      "SELECT name, paused_at FROM queues WHERE paused_at IS NOT NULL ORDER BY name";

  private QueueControlRows() {}

  static Void setPaused(Tx tx, String queue, boolean paused, Instant now) throws SQLException {
    PreparedStatement change = tx.prepare(paused ? PAUSE : RESUME);
    change.setString(1, queue);
    if (paused) {
      Timestamps.set(change, 2, now);
    }
    if (change.executeUpdate() > 0 && !paused) {
      // Other coordinators' waiting Lease calls on this queue look again.
      tx.jobsReady(queue);
    }
    return null;
  }

  static SortedMap<String, Instant> paused(Tx tx) throws SQLException {
    SortedMap<String, Instant> paused = new TreeMap<>();
    try (ResultSet rows = tx.prepare(PAUSED).executeQuery()) {
      while (rows.next()) {
        paused.put(rows.getString(1), Timestamps.get(rows, 2));
      }
    }
    return paused;
  }
}
