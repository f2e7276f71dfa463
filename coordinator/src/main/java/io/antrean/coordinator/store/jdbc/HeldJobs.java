package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.store.QueueLimits;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How many ready PENDING jobs of each limited queue its limits hold back now, the same for both
 * stores: every ready job while the queue is at its cap or its rate bucket is empty, else the ready
 * jobs whose key is at its cap or has an empty bucket. Read without locks, for metrics: a count as
 * of one moment, not a promise about the next lease.
 */
public final class HeldJobs {
  private static final String READY =
      "SELECT count(*) FROM jobs WHERE state = 'PENDING' AND queue = ? AND run_at <= ?";
  private static final String RUNNING =
      "SELECT count(*) FROM jobs WHERE state = 'RUNNING' AND queue = ?";

  private HeldJobs() {}

  /** Held jobs per queue that has limits, by queue name. */
  public static SortedMap<String, Long> count(JdbcSession session, Instant now)
      throws SQLException {
    SortedMap<String, Long> held = new TreeMap<>();
    PreparedStatement forLease = session.prepare(QueueRows.forLeaseSql(""));
    for (Map.Entry<String, QueueLimits> e : QueueRows.limited(session).entrySet()) {
      String queue = e.getKey();
      QueueRows.ForLease row = QueueRows.readForLease(forLease, queue);
      held.put(queue, heldIn(session, queue, row, now));
    }
    return held;
  }

  private static long heldIn(JdbcSession session, String queue, QueueRows.ForLease row, Instant now)
      throws SQLException {
    QueueLimits limits = row.limits();
    long nowMicros = LimitedLeases.micros(now);
    boolean queueFull =
        limits.maxRunning() != null && count(session, RUNNING, queue, null) >= limits.maxRunning();
    if (limits.rate() != null) {
      TokenBucket bucket =
          row.bucket() == null ? TokenBucket.full(limits.rate(), nowMicros) : row.bucket();
      queueFull |= bucket.refill(limits.rate(), nowMicros).whole() < 1;
    }
    if (queueFull) {
      return count(session, READY, queue, now);
    }
    if (!limits.keyed()) {
      return 0;
    }
    return LimitedLeases.countKeyHeld(session, queue, limits, nowMicros, now);
  }

  private static long count(JdbcSession session, String sql, String queue, Instant now)
      throws SQLException {
    PreparedStatement select = session.prepare(sql);
    select.setString(1, queue);
    if (now != null) {
      session.dialect().setInstant(select, 2, now);
    }
    try (ResultSet row = select.executeQuery()) {
      row.next();
      return row.getLong(1);
    }
  }
}
