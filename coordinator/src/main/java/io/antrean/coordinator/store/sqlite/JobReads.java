package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.LeaseRef;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
    StringBuilder sql = new StringBuilder("SELECT ").append(JobRowReader.JOB_COLUMNS);
    sql.append(" FROM jobs WHERE 1 = 1");
    List<Object> parameters = new ArrayList<>();
    filter(sql, parameters, "queue = ?", query.queue());
    filter(sql, parameters, "type = ?", query.type());
    filter(sql, parameters, "state = ?", query.state() == null ? null : query.state().name());
    pageClause(sql, parameters, query.beforeId(), query.limit());
    return page(connection, sql.toString(), parameters, query.limit());
  }

  /**
   * Ends a job SELECT with the page position: newest id first, before {@code beforeId}, one row
   * more than {@code limit} so {@link #page} can tell whether another page follows.
   */
  static void pageClause(
      StringBuilder sql, List<Object> parameters, @Nullable Long beforeId, int limit) {
    filter(sql, parameters, "id < ?", beforeId);
    sql.append(" ORDER BY id DESC LIMIT ?");
    parameters.add(limit + 1);
  }

  /** Runs a SELECT ended by {@link #pageClause} and cuts the answer into a page. */
  static JobPage page(CachedConnection connection, String sql, List<Object> parameters, int limit)
      throws SQLException {
    PreparedStatement select = connection.prepare(sql);
    for (int i = 0; i < parameters.size(); i++) {
      select.setObject(i + 1, parameters.get(i));
    }
    List<Job> jobs = JobRows.jobs(select);
    if (jobs.size() <= limit) {
      return new JobPage(jobs, null);
    }
    List<Job> page = jobs.subList(0, limit);
    return new JobPage(page, page.get(page.size() - 1).id());
  }

  /** Adds {@code AND condition} with its one parameter, unless the value is null (no filter). */
  static void filter(
      StringBuilder sql, List<Object> parameters, String condition, @Nullable Object value) {
    if (value != null) {
      sql.append(" AND ").append(condition);
      parameters.add(value);
    }
  }

  static List<QueueCounts> stats(CachedConnection connection, @Nullable String queue, Instant now)
      throws SQLException {
    Map<String, Map<JobState, Long>> byState = new TreeMap<>();
    if (queue != null) {
      byState.put(queue, new EnumMap<>(JobState.class));
    }
    String queueFilter = queue == null ? "1 = 1" : "queue = ?";
    PreparedStatement counts = connection.prepare(COUNT_BY_STATE.formatted(queueFilter));
    if (queue != null) {
      counts.setString(1, queue);
    }
    try (ResultSet rows = counts.executeQuery()) {
      while (rows.next()) {
        byState
            .computeIfAbsent(rows.getString(1), q -> new EnumMap<>(JobState.class))
            .put(JobState.valueOf(rows.getString(2)), rows.getLong(3));
      }
    }
    Map<String, long[]> ready = new TreeMap<>();
    PreparedStatement pending = connection.prepare(READY_PENDING.formatted(queueFilter));
    pending.setLong(1, Micros.of(now));
    if (queue != null) {
      pending.setString(2, queue);
    }
    try (ResultSet rows = pending.executeQuery()) {
      while (rows.next()) {
        ready.put(rows.getString(1), new long[] {rows.getLong(2), rows.getLong(3)});
      }
    }
    List<QueueCounts> result = new ArrayList<>(byState.size());
    byState.forEach((name, states) -> result.add(counts(name, states, ready.get(name), now)));
    return result;
  }

  private static QueueCounts counts(
      String queue, Map<JobState, Long> states, @Nullable long[] ready, Instant now) {
    long readyCount = ready == null ? 0 : ready[0];
    Duration oldestAge =
        ready == null ? Duration.ZERO : Duration.between(Micros.toInstant(ready[1]), now);
    return new QueueCounts(
        queue,
        readyCount,
        states.getOrDefault(JobState.PENDING, 0L) - readyCount,
        states.getOrDefault(JobState.RUNNING, 0L),
        states.getOrDefault(JobState.SUCCEEDED, 0L),
        states.getOrDefault(JobState.FAILED, 0L),
        states.getOrDefault(JobState.CANCELLED, 0L),
        oldestAge.isNegative() ? Duration.ZERO : oldestAge);
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
