package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.LeaseRef;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.jdbc.JobListings;
import io.antrean.coordinator.store.jdbc.QueueStats;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/** The read side: get, list, stats and running leases, on a read connection. */
final class JobReads {
  private static final String COUNT_BY_STATE =
      "SELECT queue, state, count(*) FROM jobs INDEXED BY jobs_queue_state WHERE %s"
          + " GROUP BY queue, state";
  private static final String READY_PENDING =
      "SELECT queue, count(*), min(run_at) FROM jobs INDEXED BY jobs_pending"
          + " WHERE state = 'PENDING' AND run_at <= ? AND %s GROUP BY queue";
  private static final String RUNNING_LEASES =
      "SELECT id, lease_token, lease_expires_at FROM jobs INDEXED BY jobs_running_expiry"
          + " WHERE state = 'RUNNING' ORDER BY lease_expires_at, id";

  private JobReads() {}

  static Optional<Job> get(CachedConnection connection, long jobId) throws SQLException {
    Optional<Job> job = JobRows.find(connection, jobId);
    if (job.isEmpty()) {
      return job;
    }
    return Optional.of(job.get().withHistory(JobRows.history(connection, jobId)));
  }

  static JobPage list(CachedConnection connection, JobQuery query) throws SQLException {
    List<Object> parameters = new ArrayList<>();
    String sql =
        JobListings.jobsSql(
            query,
            parameters,
            "instr(" + CaseFolding.FUNCTION + "(last_error), ?) > 0",
            Micros::ceil);
    return page(connection, sql, parameters, query.limit());
  }

  /** Runs a page SELECT of {@link JobListings} and cuts the answer into a page. */
  static JobPage page(CachedConnection connection, String sql, List<Object> parameters, int limit)
      throws SQLException {
    PreparedStatement select = connection.prepare(sql);
    for (int i = 0; i < parameters.size(); i++) {
      select.setObject(i + 1, parameters.get(i));
    }
    return JobListings.page(JobRows.jobs(select), limit);
  }

  static List<QueueCounts> stats(CachedConnection connection, @Nullable String queue, Instant now)
      throws SQLException {
    QueueStats stats = new QueueStats(queue);
    String queueFilter = queue == null ? "1 = 1" : "queue = ?";
    PreparedStatement counts = connection.prepare(COUNT_BY_STATE.formatted(queueFilter));
    if (queue != null) {
      counts.setString(1, queue);
    }
    try (ResultSet rows = counts.executeQuery()) {
      while (rows.next()) {
        stats.count(rows.getString(1), JobState.valueOf(rows.getString(2)), rows.getLong(3));
      }
    }
    PreparedStatement pending = connection.prepare(READY_PENDING.formatted(queueFilter));
    pending.setLong(1, Micros.of(now));
    if (queue != null) {
      pending.setString(2, queue);
    }
    try (ResultSet rows = pending.executeQuery()) {
      while (rows.next()) {
        stats.ready(rows.getString(1), rows.getLong(2), Micros.toInstant(rows.getLong(3)));
      }
    }
    return stats.counts(now);
  }

  static List<LeaseRef> runningLeases(CachedConnection connection) throws SQLException {
    List<LeaseRef> leases = new ArrayList<>();
    try (ResultSet rows = connection.prepare(RUNNING_LEASES).executeQuery()) {
      while (rows.next()) {
        leases.add(
            new LeaseRef(rows.getLong(1), rows.getLong(2), Micros.toInstant(rows.getLong(3))));
      }
    }
    return leases;
  }
}
