package io.antrean.coordinator.store.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code queues} table: which queues are paused and since when. A queue gets a row the first
 * time it is paused; resuming clears its {@code paused_at} and keeps the row. A lease reads the row
 * in the same writer operation or statement that picks the jobs ({@link JdbcDialect#lease}).
 */
public final class QueueControlRows {
  private static final String PAUSE =
      "INSERT INTO queues (name, paused_at) VALUES (?, ?) ON CONFLICT (name)"
          + " DO UPDATE SET paused_at = coalesce(queues.paused_at, excluded.paused_at)";
  private static final String RESUME =
      "UPDATE queues SET paused_at = NULL WHERE name = ? AND paused_at IS NOT NULL";
  private static final String IS_PAUSED =
      "SELECT 1 FROM queues WHERE name = ? AND paused_at IS NOT NULL";
  private static final String PAUSED =
      "SELECT name, paused_at FROM queues WHERE paused_at IS NOT NULL ORDER BY name";

  private QueueControlRows() {}

  /** Pauses or resumes the queue; resuming wakes the waiting leases of other coordinators. */
  public static Void setPaused(JdbcSession session, String queue, boolean paused, Instant now)
      throws SQLException {
    PreparedStatement change = session.prepare(paused ? PAUSE : RESUME);
    change.setString(1, queue);
    if (paused) {
      session.dialect().setInstant(change, 2, now);
    }
    if (change.executeUpdate() > 0 && !paused) {
      session.jobsReady(queue);
    }
    return null;
  }

  public static boolean isPaused(JdbcSession session, String queue) throws SQLException {
    PreparedStatement select = session.prepare(IS_PAUSED);
    select.setString(1, queue);
    try (ResultSet rows = select.executeQuery()) {
      return rows.next();
    }
  }

  /** The paused queues and since when, by name. */
  public static SortedMap<String, Instant> paused(JdbcSession session) throws SQLException {
    SortedMap<String, Instant> paused = new TreeMap<>();
    try (ResultSet rows = session.prepare(PAUSED).executeQuery()) {
      while (rows.next()) {
        paused.put(rows.getString(1), session.dialect().instant(rows, 2));
      }
    }
    return paused;
  }
}
