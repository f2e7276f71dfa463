package io.antrean.coordinator.store.postgres;

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
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.annotation.Nullable;

/** The read side: get, list, stats and running leases. Each answer comes from one snapshot. */
final class JobReads {
  // One statement, so the counts and the ready figures agree with each other.
  private static final String COUNTS =
      "SELECT queue, state, count(*),"
          + " count(*) FILTER (WHERE state = 'PENDING' AND run_at <= ?),"
          + " min(run_at) FILTER (WHERE state = 'PENDING' AND run_at <= ?)"
          + " FROM jobs%s GROUP BY queue, state";
  private static final String RUNNING_LEASES =
      "SELECT id, lease_token, lease_expires_at FROM jobs"
          + " WHERE state = 'RUNNING' ORDER BY lease_expires_at, id";

  private JobReads() {}

  static Optional<Job> get(Tx tx, long jobId) throws SQLException {
    Optional<Job> job = JobRows.find(tx, jobId);
    if (job.isEmpty()) {
      return job;
    }
    return Optional.of(job.get().withHistory(JobRows.history(tx, jobId)));
  }

  static JobPage list(Tx tx, JobQuery query) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT ").append(JobRowReader.JOB_COLUMNS);
    sql.append(" FROM jobs WHERE true");
    List<Object> parameters = new ArrayList<>();
    filter(sql, parameters, "queue = ?", query.queue());
    filter(sql, parameters, "type = ?", query.type());
    filter(sql, parameters, "state = ?", query.state() == null ? null : query.state().name());
    return page(
        tx, pageSql(sql, parameters, query.beforeId(), query.limit()), parameters, query.limit());
  }

  /**
   * Completes a job SELECT whose WHERE clause is {@code sql} so far into one page before {@code
   * beforeId}, newest id first, with one row more than the page holds (it tells whether another
   * page follows).
   */
  static String pageSql(
      StringBuilder sql, List<Object> parameters, @Nullable Long beforeId, int limit) {
    filter(sql, parameters, "id < ?", beforeId);
    sql.append(" ORDER BY id DESC LIMIT ?");
    parameters.add(limit + 1);
    return sql.toString();
  }

  /** Runs a statement of {@link #pageSql} and cuts its answer into a page. */
  static JobPage page(Tx tx, String sql, List<Object> parameters, int limit) throws SQLException {
    PreparedStatement select = tx.prepare(sql);
    bind(select, parameters);
    List<Job> jobs = JobRows.jobs(select);
    if (jobs.size() <= limit) {
      return new JobPage(jobs, null);
    }
    List<Job> page = jobs.subList(0, limit);
    return new JobPage(page, page.get(page.size() - 1).id());
  }

  /** Binds the parameters in order; instants as timestamps. */
  static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
    for (int i = 0; i < parameters.size(); i++) {
      Object value = parameters.get(i);
      if (value instanceof Instant instant) {
        Timestamps.set(statement, i + 1, instant);
      } else {
        statement.setObject(i + 1, value);
      }
    }
  }

  /** Adds {@code AND condition} with its one parameter, unless the value is null (no filter). */
  static void filter(
      StringBuilder sql, List<Object> parameters, String condition, @Nullable Object value) {
    if (value != null) {
      sql.append(" AND ").append(condition);
      parameters.add(value);
    }
  }

  static List<QueueCounts> stats(Tx tx, @Nullable String queue, Instant now) throws SQLException {
    Map<String, Map<JobState, Long>> byState = new TreeMap<>();
    Map<String, Long> ready = new TreeMap<>();
    Map<String, Instant> oldestReady = new TreeMap<>();
    if (queue != null) {
      byState.put(queue, new EnumMap<>(JobState.class));
    }
    PreparedStatement counts =
        tx.prepare(COUNTS.formatted(queue == null ? "" : " WHERE queue = ?"));
    Timestamps.set(counts, 1, now);
    Timestamps.set(counts, 2, now);
    if (queue != null) {
      counts.setString(3, queue);
    }
    try (ResultSet rows = counts.executeQuery()) {
      while (rows.next()) {
        String name = rows.getString(1);
        byState
            .computeIfAbsent(name, q -> new EnumMap<>(JobState.class))
            .put(JobState.valueOf(rows.getString(2)), rows.getLong(3));
        OffsetDateTime oldest = rows.getObject(5, OffsetDateTime.class);
        if (oldest != null) {
          ready.put(name, rows.getLong(4));
          oldestReady.put(name, oldest.toInstant());
        }
      }
    }
    List<QueueCounts> result = new ArrayList<>(byState.size());
    byState.forEach(
        (name, states) ->
            result.add(counts(name, states, ready.get(name), oldestReady.get(name), now)));
    return result;
  }

  private static QueueCounts counts(
      String queue,
      Map<JobState, Long> states,
      @Nullable Long ready,
      @Nullable Instant oldestReady,
      Instant now) {
    long readyCount = ready == null ? 0 : ready;
    Duration oldestAge = oldestReady == null ? Duration.ZERO : Duration.between(oldestReady, now);
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

  static List<LeaseRef> runningLeases(Tx tx) throws SQLException {
    List<LeaseRef> leases = new ArrayList<>();
    try (ResultSet rows = tx.prepare(RUNNING_LEASES).executeQuery()) {
      while (rows.next()) {
        leases.add(new LeaseRef(rows.getLong(1), rows.getLong(2), Timestamps.get(rows, 3)));
      }
    }
    return leases;
  }
}
