package io.antrean.coordinator.store.postgres;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Rows of {@code jobs} and {@code attempts} to domain records. */
final class JobRows {
  /** Every column a {@link Job} is read from, in this order, for SELECT and RETURNING lists. */
  private static final List<String> COLUMNS =
      List.of(
          "id",
          "queue",
          "type",
          "payload",
          "content_type",
          "priority",
          "run_at",
          "idempotency_key",
          "max_attempts",
          "initial_backoff_micros",
          "backoff_multiplier",
          "max_backoff_micros",
          "max_lease_expiries",
          "attempts",
          "lease_expiries",
          "state",
          "result",
          "result_content_type",
          "last_error",
          "created_at",
          "updated_at",
          "finished_at",
          "lease_worker_id",
          "lease_token",
          "lease_expires_at",
          "progress",
          "cancel_requested");

  static final String JOB_COLUMNS = String.join(", ", COLUMNS);

  private static final int ID = position("id");
  private static final int QUEUE = position("queue");
  private static final int TYPE = position("type");
  private static final int PAYLOAD = position("payload");
  private static final int CONTENT_TYPE = position("content_type");
  private static final int PRIORITY = position("priority");
  private static final int RUN_AT = position("run_at");
  private static final int IDEMPOTENCY_KEY = position("idempotency_key");
  private static final int MAX_ATTEMPTS = position("max_attempts");
  private static final int INITIAL_BACKOFF = position("initial_backoff_micros");
  private static final int MULTIPLIER = position("backoff_multiplier");
  private static final int MAX_BACKOFF = position("max_backoff_micros");
  private static final int MAX_LEASE_EXPIRIES = position("max_lease_expiries");
  private static final int ATTEMPTS = position("attempts");
  private static final int LEASE_EXPIRIES = position("lease_expiries");
  private static final int STATE = position("state");
  private static final int RESULT = position("result");
  private static final int RESULT_CONTENT_TYPE = position("result_content_type");
  private static final int LAST_ERROR = position("last_error");
  private static final int CREATED_AT = position("created_at");
  private static final int UPDATED_AT = position("updated_at");
  private static final int FINISHED_AT = position("finished_at");
  private static final int LEASE_WORKER_ID = position("lease_worker_id");
  private static final int LEASE_TOKEN = position("lease_token");
  private static final int LEASE_EXPIRES_AT = position("lease_expires_at");
  private static final int PROGRESS = position("progress");
  private static final int CANCEL_REQUESTED = position("cancel_requested");

  private static final String SELECT_JOB = "SELECT " + JOB_COLUMNS + " FROM jobs WHERE id = ?";
  private static final String SELECT_HISTORY =
      "SELECT attempt, worker_id, fencing_token, leased_at, ended_at, outcome, error_kind,"
          + " error_type, error_message, stack_trace FROM attempts WHERE job_id = ? ORDER BY id";

  private JobRows() {}

  private static int position(String column) {
    int index = COLUMNS.indexOf(column);
    if (index < 0) {
      throw new IllegalStateException("no job column " + column);
    }
    return index + 1;
  }

  /** The job without its history, or empty. */
  static Optional<Job> find(Tx tx, long jobId) throws SQLException {
    return first(tx, SELECT_JOB, jobId);
  }

  /**
   * The job, locked against every other change until this transaction ends, or empty. Waits for a
   * transaction that holds the lock and then reads the job as that one left it.
   */
  static Optional<Job> findForUpdate(Tx tx, long jobId) throws SQLException {
    return first(tx, SELECT_JOB + " FOR UPDATE", jobId);
  }

  private static Optional<Job> first(Tx tx, String sql, long jobId) throws SQLException {
    PreparedStatement select = tx.prepare(sql);
    select.setLong(1, jobId);
    List<Job> jobs = jobs(select);
    return jobs.isEmpty() ? Optional.empty() : Optional.of(jobs.get(0));
  }

  /** The job's attempt history, oldest first. */
  static List<Attempt> history(Tx tx, long jobId) throws SQLException {
    PreparedStatement select = tx.prepare(SELECT_HISTORY);
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

  /** The job of the current row of a result set over {@link #JOB_COLUMNS}. */
  static Job job(ResultSet row) throws SQLException {
    JobState state = JobState.valueOf(row.getString(STATE));
    Instant leaseExpiresAt = Timestamps.get(row, LEASE_EXPIRES_AT);
    LeaseInfo lease =
        state == JobState.RUNNING && leaseExpiresAt != null
            ? new LeaseInfo(
                row.getString(LEASE_WORKER_ID), row.getLong(LEASE_TOKEN), leaseExpiresAt)
            : null;
    return new Job(
        row.getLong(ID),
        row.getString(QUEUE),
        row.getString(TYPE),
        row.getBytes(PAYLOAD),
        row.getString(CONTENT_TYPE),
        row.getInt(PRIORITY),
        Timestamps.get(row, RUN_AT),
        row.getString(IDEMPOTENCY_KEY),
        new RetryPolicy(
            row.getInt(MAX_ATTEMPTS),
            Timestamps.duration(row.getLong(INITIAL_BACKOFF)),
            row.getDouble(MULTIPLIER),
            Timestamps.duration(row.getLong(MAX_BACKOFF)),
            row.getInt(MAX_LEASE_EXPIRIES)),
        row.getInt(ATTEMPTS),
        row.getInt(LEASE_EXPIRIES),
        state,
        row.getBytes(RESULT),
        row.getString(RESULT_CONTENT_TYPE),
        row.getString(LAST_ERROR),
        Timestamps.get(row, CREATED_AT),
        Timestamps.get(row, UPDATED_AT),
        Timestamps.get(row, FINISHED_AT),
        lease,
        row.getString(PROGRESS),
        row.getBoolean(CANCEL_REQUESTED),
        List.of());
  }

  /**
   * The fencing token of the job's latest lease, on the current row of a result set over {@link
   * #JOB_COLUMNS}; unlike {@link #job} it is known in every state, not only while RUNNING.
   */
  static long fencingToken(ResultSet row) throws SQLException {
    return row.getLong(LEASE_TOKEN);
  }

  private static Attempt attempt(ResultSet row) throws SQLException {
    String errorKind = row.getString(7);
    return new Attempt(
        row.getInt(1),
        row.getString(2),
        row.getLong(3),
        Timestamps.get(row, 4),
        Timestamps.get(row, 5),
        AttemptOutcome.valueOf(row.getString(6)),
        errorKind == null ? null : ErrorKind.valueOf(errorKind),
        row.getString(8),
        row.getString(9),
        row.getString(10));
  }
}
