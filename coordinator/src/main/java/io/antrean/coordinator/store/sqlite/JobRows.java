package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseInfo;
import io.antrean.coordinator.job.RetryPolicy;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/** Rows of {@code jobs} and {@code attempts} to and from domain records. */
final class JobRows {
  /** Every column a {@link Job} is read from, for SELECT and RETURNING lists. */
  static final String JOB_COLUMNS =
      "id, queue, type, payload, content_type, priority, run_at, idempotency_key, max_attempts,"
          + " initial_backoff_micros, backoff_multiplier, max_backoff_micros, max_lease_expiries,"
          + " attempts, lease_expiries, state, result, result_content_type, last_error,"
          + " created_at, updated_at, finished_at, lease_worker_id, lease_token,"
          + " lease_expires_at, progress, cancel_requested";

  private static final String SELECT_JOB = "SELECT " + JOB_COLUMNS + " FROM jobs WHERE id = ?";
  private static final String SELECT_HISTORY =
      "SELECT attempt, worker_id, fencing_token, leased_at, ended_at, outcome, error_kind,"
          + " error_type, error_message, stack_trace FROM attempts WHERE job_id = ? ORDER BY id";

  private JobRows() {}

  /** The job without its history, or empty. */
  static Optional<Job> find(CachedConnection connection, long jobId) throws SQLException {
    PreparedStatement select = connection.prepare(SELECT_JOB);
    select.setLong(1, jobId);
    try (ResultSet rows = select.executeQuery()) {
      return rows.next() ? Optional.of(job(rows)) : Optional.empty();
    }
  }

  /** The job's attempt history, oldest first. */
  static List<Attempt> history(CachedConnection connection, long jobId) throws SQLException {
    PreparedStatement select = connection.prepare(SELECT_HISTORY);
    select.setLong(1, jobId);
    List<Attempt> history = new ArrayList<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        history.add(attempt(rows));
      }
    }
    return history;
  }

  /** Every job of the result set, in its order. */
  static List<Job> jobs(PreparedStatement statement) throws SQLException {
    List<Job> jobs = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        jobs.add(job(rows));
      }
    }
    return jobs;
  }

  /** The one job the statement returns (a RETURNING clause on one row). */
  static Job single(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      if (!rows.next()) {
        throw new IllegalStateException("expected one job row, got none");
      }
      return job(rows);
    }
  }

  static Job job(ResultSet row) throws SQLException {
    JobState state = JobState.valueOf(row.getString("state"));
    Instant leaseExpiresAt = instant(row, "lease_expires_at");
    LeaseInfo lease =
        state == JobState.RUNNING && leaseExpiresAt != null
            ? new LeaseInfo(
                row.getString("lease_worker_id"), row.getLong("lease_token"), leaseExpiresAt)
            : null;
    return new Job(
        row.getLong("id"),
        row.getString("queue"),
        row.getString("type"),
        blob(row, "payload", new byte[0]),
        row.getString("content_type"),
        row.getInt("priority"),
        Micros.toInstant(row.getLong("run_at")),
        row.getString("idempotency_key"),
        new RetryPolicy(
            row.getInt("max_attempts"),
            Micros.toDuration(row.getLong("initial_backoff_micros")),
            row.getDouble("backoff_multiplier"),
            Micros.toDuration(row.getLong("max_backoff_micros")),
            row.getInt("max_lease_expiries")),
        row.getInt("attempts"),
        row.getInt("lease_expiries"),
        state,
        blob(row, "result", null),
        row.getString("result_content_type"),
        row.getString("last_error"),
        Micros.toInstant(row.getLong("created_at")),
        Micros.toInstant(row.getLong("updated_at")),
        instant(row, "finished_at"),
        lease,
        row.getString("progress"),
        row.getInt("cancel_requested") != 0,
        List.of());
  }

  private static Attempt attempt(ResultSet row) throws SQLException {
    String errorKind = row.getString("error_kind");
    return new Attempt(
        row.getInt("attempt"),
        row.getString("worker_id"),
        row.getLong("fencing_token"),
        Micros.toInstant(row.getLong("leased_at")),
        instant(row, "ended_at"),
        AttemptOutcome.valueOf(row.getString("outcome")),
        errorKind == null ? null : ErrorKind.valueOf(errorKind),
        row.getString("error_type"),
        row.getString("error_message"),
        row.getString("stack_trace"));
  }

  /** A BLOB column; SQLite may hand a zero-length blob back as null, so NULL is told apart here. */
  @Nullable
  private static byte[] blob(ResultSet row, String column, @Nullable byte[] ifNull)
      throws SQLException {
    byte[] bytes = row.getBytes(column);
    if (bytes != null) {
      return bytes;
    }
    return row.getObject(column) == null ? ifNull : new byte[0];
  }

  @Nullable
  static Instant instant(ResultSet row, String column) throws SQLException {
    long micros = row.getLong(column);
    return row.wasNull() ? null : Micros.toInstant(micros);
  }

  /** Binds a nullable INTEGER parameter. */
  static void setNullableLong(PreparedStatement statement, int index, @Nullable Long value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.INTEGER);
    } else {
      statement.setLong(index, value);
    }
  }
}
