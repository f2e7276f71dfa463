package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.job.LeaseInfo;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * Rows of {@code jobs} and {@code attempts} to domain records. Both stores have the same columns;
 * they differ only in how instants and binary values come back, which their {@link ColumnEncoding}
 * handles. Thread-safe.
 */
public final class JobRowReader {
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
          "releases",
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
          "cancel_requested",
          "trace_parent",
          "concurrency_key",
          "lease_id_sha256");

  /** The select list of a job, for SELECT and RETURNING clauses read by {@link #job}. */
  public static final String JOB_COLUMNS = String.join(", ", COLUMNS);

  /** One job by id; parameter: the id. */
  public static final String SELECT_JOB = "SELECT " + JOB_COLUMNS + " FROM jobs WHERE id = ?";

  /**
   * A job's attempt history from one entry on, oldest first, read by {@link #history}; parameters:
   * the job id, the first entry's id.
   */
  public static final String SELECT_HISTORY =
      "SELECT attempt, worker_id, fencing_token, leased_at, ended_at, outcome, error_kind,"
          + " error_type, error_message, stack_trace FROM attempts WHERE job_id = ? AND id >= ?"
          + " ORDER BY id";

  // Rows are read by position: sqlite-jdbc's lookup by name costs more than the row itself.
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
  private static final int RELEASES = position("releases");
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
  private static final int TRACE_PARENT = position("trace_parent");
  private static final int CONCURRENCY_KEY = position("concurrency_key");
  private static final int LEASE_ID_SHA256 = position("lease_id_sha256");

  private final ColumnEncoding encoding;

  public JobRowReader(ColumnEncoding encoding) {
    this.encoding = Objects.requireNonNull(encoding, "encoding");
  }

  private static int position(String column) {
    int index = COLUMNS.indexOf(column);
    if (index < 0) {
      throw new IllegalStateException("no job column " + column);
    }
    return index + 1;
  }

  @Nullable
  private static LeaseId leaseId(@Nullable byte[] sha256) {
    return sha256 == null || sha256.length == 0 ? null : LeaseId.stored(sha256);
  }

  /**
   * Runs the statement and reads every job of its result, in order; a payload kept apart from its
   * row is read through {@code session} ({@link JdbcDialect#payloadApart}).
   */
  public List<Job> jobs(JdbcSession session, PreparedStatement statement) throws SQLException {
    List<Job> jobs = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        jobs.add(job(session, rows));
      }
    }
    return jobs;
  }

  /** Runs a statement of {@link #SELECT_HISTORY} and reads the attempts, in order. */
  public List<Attempt> history(PreparedStatement statement) throws SQLException {
    List<Attempt> history = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        history.add(attempt(rows));
      }
    }
    return history;
  }

  /**
   * The job, without history, of the current row of a result over {@link #JOB_COLUMNS}; a payload
   * kept apart from its row is read through {@code session} ({@link JdbcDialect#payloadApart}).
   */
  public Job job(JdbcSession session, ResultSet row) throws SQLException {
    JobState state = JobState.valueOf(row.getString(STATE));
    Instant leaseExpiresAt = encoding.instant(row, LEASE_EXPIRES_AT);
    LeaseInfo lease =
        state == JobState.RUNNING && leaseExpiresAt != null
            ? new LeaseInfo(
                row.getString(LEASE_WORKER_ID),
                row.getLong(LEASE_TOKEN),
                leaseExpiresAt,
                leaseId(encoding.bytes(row, LEASE_ID_SHA256)))
            : null;
    long id = row.getLong(ID);
    byte[] payload = encoding.bytes(row, PAYLOAD);
    return new Job(
        id,
        row.getString(QUEUE),
        row.getString(TYPE),
        payload != null ? payload : session.dialect().payloadApart(session, id),
        row.getString(CONTENT_TYPE),
        row.getInt(PRIORITY),
        encoding.instant(row, RUN_AT),
        row.getString(IDEMPOTENCY_KEY),
        new RetryPolicy(
            row.getInt(MAX_ATTEMPTS),
            DurationColumns.fromMicros(row.getLong(INITIAL_BACKOFF)),
            row.getDouble(MULTIPLIER),
            DurationColumns.fromMicros(row.getLong(MAX_BACKOFF)),
            row.getInt(MAX_LEASE_EXPIRIES)),
        row.getInt(ATTEMPTS),
        row.getInt(LEASE_EXPIRIES),
        row.getInt(RELEASES),
        state,
        encoding.bytes(row, RESULT),
        row.getString(RESULT_CONTENT_TYPE),
        row.getString(LAST_ERROR),
        encoding.instant(row, CREATED_AT),
        encoding.instant(row, UPDATED_AT),
        encoding.instant(row, FINISHED_AT),
        lease,
        row.getString(PROGRESS),
        // sqlite-jdbc reads an INTEGER flag as getInt(...) != 0; PostgreSQL has a boolean.
        row.getBoolean(CANCEL_REQUESTED),
        List.of(),
        0,
        row.getString(TRACE_PARENT),
        row.getString(CONCURRENCY_KEY));
  }

  /**
   * The fencing token of the job's latest lease, on the current row of a result over {@link
   * #JOB_COLUMNS}; unlike {@link #job} it is known in every state, not only while RUNNING.
   */
  public static long fencingToken(ResultSet row) throws SQLException {
    return row.getLong(LEASE_TOKEN);
  }

  /**
   * The job exactly as a read would return it right after its insert (times and backoffs cut as the
   * columns cut them), built instead of read back so the payload does not travel twice.
   */
  public Job inserted(long id, NewJob job, Instant now) {
    return stored(id, job, now, 0, JobState.PENDING, now, null);
  }

  /**
   * The job a plain Enqueue stored at {@code createdAt} as its row reads back once its first lease
   * was granted at {@code now}: RUNNING under {@code lease}, without its history.
   */
  public Job leased(long id, NewJob job, Instant createdAt, LeaseInfo lease, Instant now) {
    LeaseInfo stored =
        new LeaseInfo(
            lease.workerId(),
            lease.fencingToken(),
            encoding.asStored(lease.expiresAt()),
            lease.leaseId());
    return stored(id, job, createdAt, 1, JobState.RUNNING, now, stored);
  }

  private Job stored(
      long id,
      NewJob job,
      Instant createdAt,
      int attempts,
      JobState state,
      Instant updatedAt,
      @Nullable LeaseInfo lease) {
    RetryPolicy policy = job.retryPolicy();
    return new Job(
        id,
        job.queue(),
        job.type(),
        job.payload(),
        job.contentType(),
        job.priority(),
        encoding.asStored(job.runAt()),
        job.idempotencyKey(),
        new RetryPolicy(
            policy.maxAttempts(),
            DurationColumns.asStored(policy.initialBackoff()),
            policy.multiplier(),
            DurationColumns.asStored(policy.maxBackoff()),
            policy.maxLeaseExpiries()),
        attempts,
        0,
        0,
        state,
        null,
        null,
        null,
        encoding.asStored(createdAt),
        encoding.asStored(updatedAt),
        null,
        lease,
        null,
        false,
        List.of(),
        0,
        job.traceParent(),
        job.concurrencyKey());
  }

  private Attempt attempt(ResultSet row) throws SQLException {
    String errorKind = row.getString(7);
    return new Attempt(
        row.getInt(1),
        row.getString(2),
        row.getLong(3),
        encoding.instant(row, 4),
        encoding.instant(row, 5),
        AttemptOutcome.valueOf(row.getString(6)),
        errorKind == null ? null : ErrorKind.valueOf(errorKind),
        row.getString(8),
        row.getString(9),
        row.getString(10));
  }
}
