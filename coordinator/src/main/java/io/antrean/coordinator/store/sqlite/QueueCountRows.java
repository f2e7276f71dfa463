package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.QueueStats;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A queue's counts without counting its jobs: the jobs per queue and state are the rows of {@code
 * queue_counts}, which triggers keep as jobs are stored, change state and are deleted (migration
 * V12), but for a lease's and a completion's moves, which the code that makes them counts ({@link
 * #moved}, migration V14). Of the PENDING jobs, those not yet due are counted in {@code
 * jobs_pending}, where each priority's entries run in {@code run_at} order: per priority one step
 * to its first entry (its oldest {@code run_at}) and a walk over its entries still in the future.
 * So a call costs the queues, their priorities and their scheduled jobs, not the backlog or the
 * finished jobs kept.
 */
final class QueueCountRows {
  static final String ALL_COUNTS = "SELECT queue, state, jobs FROM queue_counts WHERE jobs > 0";
  private static final String ONE_QUEUE_COUNTS = ALL_COUNTS + " AND queue = ?";
  // The next lower priority with a PENDING job, and that priority's earliest run_at.
  static final String NEXT_PRIORITY =
      "SELECT priority, run_at FROM jobs INDEXED BY jobs_pending"
          + " WHERE state = 'PENDING' AND queue = ? AND priority < ?"
          + " ORDER BY priority DESC, run_at, id LIMIT 1";
  static final String NOT_YET_DUE =
      "SELECT count(*) FROM jobs INDEXED BY jobs_pending"
          + " WHERE state = 'PENDING' AND queue = ? AND priority = ? AND run_at > ?";

  // The state left, then the state entered: an upsert of two rows.
  private static final String MOVED =
      "INSERT INTO queue_counts (queue, state, jobs) VALUES (?1, ?2, -?4), (?1, ?3, ?4)"
          + " ON CONFLICT (queue, state) DO UPDATE SET jobs = jobs + excluded.jobs";

  private QueueCountRows() {}

  /**
   * Counts {@code jobs} jobs of {@code queue} that one lease or one batch moved from one state to
   * another.
   */
  static void moved(JdbcSession session, String queue, JobState from, JobState to, int jobs)
      throws SQLException {
    if (jobs == 0) {
      return;
    }
    PreparedStatement moved = session.prepare(MOVED);
    moved.setString(1, queue);
    moved.setString(2, from.name());
    moved.setString(3, to.name());
    moved.setInt(4, jobs);
    moved.executeUpdate();
  }

  /**
   * The counts of {@code queue}, or of every queue that holds a job when it is null; with {@code
   * unfinishedOnly}, of the PENDING, RUNNING and WAITING jobs alone.
   */
  static List<QueueCounts> stats(
      JdbcSession session, @Nullable String queue, Instant now, boolean unfinishedOnly)
      throws SQLException {
    return counted(session, queue, now, unfinishedOnly).counts(now);
  }

  /** What {@link #stats} answers, still open to more counts (the young jobs'). */
  static QueueStats counted(
      JdbcSession session, @Nullable String queue, Instant now, boolean unfinishedOnly)
      throws SQLException {
    QueueStats stats = new QueueStats(queue);
    Map<String, Long> pending = new LinkedHashMap<>();
    PreparedStatement counts =
        session.prepare(
            (queue == null ? ALL_COUNTS : ONE_QUEUE_COUNTS)
                + (unfinishedOnly ? " AND " + QueueStats.UNFINISHED : ""));
    if (queue != null) {
      counts.setString(1, queue);
    }
    try (ResultSet rows = counts.executeQuery()) {
      while (rows.next()) {
        JobState state = JobState.valueOf(rows.getString(2));
        stats.count(rows.getString(1), state, rows.getLong(3));
        if (state == JobState.PENDING) {
          pending.put(rows.getString(1), rows.getLong(3));
        }
      }
    }
    long nowMicros = Micros.of(now);
    for (Map.Entry<String, Long> queuePending : pending.entrySet()) {
      ready(session, stats, queuePending.getKey(), queuePending.getValue(), nowMicros);
    }
    return stats;
  }

  /** Counts the queue's PENDING jobs not yet due, priority by priority; the rest are ready. */
  private static void ready(
      JdbcSession session, QueueStats stats, String queue, long pending, long nowMicros)
      throws SQLException {
    long notYetDue = 0;
    long oldestDue = Long.MAX_VALUE;
    long below = Long.MAX_VALUE;
    PreparedStatement next = session.prepare(NEXT_PRIORITY);
    next.setString(1, queue);
    PreparedStatement later = session.prepare(NOT_YET_DUE);
    later.setString(1, queue);
    later.setLong(3, nowMicros);
    while (true) {
      next.setLong(2, below);
      long priority;
      long earliest;
      try (ResultSet row = next.executeQuery()) {
        if (!row.next()) {
          break;
        }
        priority = row.getLong(1);
        earliest = row.getLong(2);
      }
      if (earliest <= nowMicros) {
        oldestDue = Math.min(oldestDue, earliest);
      }
      later.setLong(2, priority);
      try (ResultSet row = later.executeQuery()) {
        row.next();
        notYetDue += row.getLong(1);
      }
      below = priority;
    }
    long due = pending - notYetDue;
    if (due > 0 && oldestDue != Long.MAX_VALUE) {
      stats.ready(queue, due, Micros.toInstant(oldestDue));
    }
  }
}
