package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Cancellation;
import io.antrean.coordinator.job.Decision;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.job.UniqueKey;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.IdempotencyConflictException;
import io.antrean.coordinator.store.JobNotFoundException;
import io.antrean.coordinator.store.UniqueKeyConflictException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * What producers change: new jobs and cancellations. How a batch of new jobs is stored is the
 * dialect's ({@link JdbcDialect#enqueue}); the row it inserts and the idempotency key it looks up
 * are the same everywhere and written here.
 */
public final class ProducerWrites {
  /** The columns of a new job's row, in the order of {@link #JOB_ROW}. */
  public static final String JOB_COLUMNS =
      "(queue, type, payload, content_type, priority, run_at, idempotency_key, max_attempts,"
          + " initial_backoff_micros, backoff_multiplier, max_backoff_micros, max_lease_expiries,"
          + " state, created_at, updated_at, trace_parent, concurrency_key, unique_key)";

  /** A new job's values; {@link #bindJob} binds its 17 parameters. */
  public static final String JOB_ROW =
      "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?)";

  /** The columns and values of a new job; {@link #bindJob} binds its 17 parameters. */
  public static final String JOB_VALUES = JOB_COLUMNS + " VALUES " + JOB_ROW;

  /** Inserts one new job; see {@link #bindJob}. */
  public static final String INSERT_JOB = "INSERT INTO jobs " + JOB_VALUES;

  private static final String ACTIVE_HOLDER =
      "SELECT id FROM jobs WHERE queue = ? AND unique_key = ? AND state IN ('PENDING', 'RUNNING', 'WAITING')";
  // The partial unique index decides between racing coordinators: the second insert waits for the
  // first transaction and, once it commits, inserts nothing.
  private static final String INSERT_JOB_UNLESS_KEY_ACTIVE =
      INSERT_JOB
          + " ON CONFLICT (queue, unique_key)"
          + " WHERE unique_key IS NOT NULL AND state IN ('PENDING', 'RUNNING', 'WAITING') DO NOTHING"
          + " RETURNING id";
  private static final int MAX_UNIQUE_RACES = 3;

  private static final String LIVE_KEY =
      "SELECT job_id, fingerprint FROM idempotency_keys"
          + " WHERE queue = ? AND key = ? AND expires_at > ?";

  private ProducerWrites() {}

  /** Binds the 17 parameters of {@link #JOB_VALUES}; returns the next parameter index. */
  public static int bindJob(JdbcDialect dialect, PreparedStatement insert, NewJob job, Instant now)
      throws SQLException {
    return bindJob(dialect, insert, 1, job, now);
  }

  /**
   * Binds the 17 parameters of one {@link #JOB_ROW} from parameter {@code first} on; returns the
   * index after them.
   */
  public static int bindJob(
      JdbcDialect dialect, PreparedStatement insert, int first, NewJob job, Instant now)
      throws SQLException {
    return bindJob(dialect, insert, first, job, now, now);
  }

  /**
   * {@link #bindJob(JdbcDialect, PreparedStatement, int, NewJob, Instant)} for a job stored at
   * {@code createdAt} and last changed at {@code updatedAt}.
   */
  public static int bindJob(
      JdbcDialect dialect,
      PreparedStatement insert,
      int first,
      NewJob job,
      Instant createdAt,
      Instant updatedAt)
      throws SQLException {
    RetryPolicy policy = job.retryPolicy();
    int i = first;
    insert.setString(i++, job.queue());
    insert.setString(i++, job.type());
    dialect.bindPayload(insert, i++, job.payload());
    insert.setString(i++, job.contentType());
    insert.setInt(i++, job.priority());
    dialect.setInstant(insert, i++, job.runAt());
    insert.setString(i++, job.idempotencyKey());
    insert.setInt(i++, policy.maxAttempts());
    insert.setLong(i++, DurationColumns.toMicros(policy.initialBackoff()));
    insert.setDouble(i++, policy.multiplier());
    insert.setLong(i++, DurationColumns.toMicros(policy.maxBackoff()));
    insert.setInt(i++, policy.maxLeaseExpiries());
    dialect.setInstant(insert, i++, createdAt);
    dialect.setInstant(insert, i++, updatedAt);
    insert.setString(i++, job.traceParent());
    insert.setString(i++, job.concurrencyKey());
    insert.setString(i++, job.uniqueKey() == null ? null : job.uniqueKey().key());
    return i;
  }

  /**
   * Runs an insert of {@code rows} new jobs that returns their ids ({@code RETURNING id}) and gives
   * them in the order the rows went in. RETURNING promises no order, but the ids do, where each row
   * inserted draws a larger id than any before it in the statement (SQLite's AUTOINCREMENT, and a
   * PostgreSQL identity drawn as the rows go in): sorted, they follow the rows.
   *
   * @throws IllegalStateException if the statement returned another number of ids
   */
  public static long[] insertedIds(PreparedStatement insert, int rows) throws SQLException {
    long[] ids = new long[rows];
    int returned = 0;
    try (ResultSet returning = insert.executeQuery()) {
      while (returning.next()) {
        if (returned == rows) {
          throw new IllegalStateException("an insert of " + rows + " jobs returned more ids");
        }
        ids[returned++] = returning.getLong(1);
      }
    }
    if (returned != rows) {
      throw new IllegalStateException(
          "an insert of " + rows + " jobs returned " + returned + " ids");
    }
    Arrays.sort(ids);
    return ids;
  }

  /**
   * Stores a job with a unique key unless a PENDING or RUNNING job of its queue holds the key (the
   * coordinator validates that such a job carries no idempotency key). Exact under many
   * coordinators: the partial unique index makes a racing second insert wait and insert nothing.
   *
   * @return the new job, or the holder (deduplicated) if the job asked for it back
   * @throws UniqueKeyConflictException if the key is held and the job asked to be refused
   */
  public static EnqueueResult enqueueUnique(JdbcSession session, NewJob job, Instant now)
      throws SQLException {
    UniqueKey unique = job.uniqueKey();
    for (int race = 0; race < MAX_UNIQUE_RACES; race++) {
      PreparedStatement select = session.prepare(ACTIVE_HOLDER);
      select.setString(1, job.queue());
      select.setString(2, unique.key());
      Long holder = null;
      try (ResultSet row = select.executeQuery()) {
        if (row.next()) {
          holder = row.getLong(1);
        }
      }
      if (holder != null) {
        if (!unique.returnExisting()) {
          throw new UniqueKeyConflictException(job.queue(), unique.key(), holder);
        }
        Optional<Job> existing = JobRows.find(session, holder);
        if (existing.isPresent()) {
          return new EnqueueResult(existing.get(), true);
        }
        continue;
      }
      PreparedStatement insert = session.prepare(INSERT_JOB_UNLESS_KEY_ACTIVE);
      bindJob(session.dialect(), insert, job, now);
      try (ResultSet row = insert.executeQuery()) {
        if (row.next()) {
          long id = row.getLong(1);
          session.dialect().storePayloadApart(session, id, job.payload());
          return new EnqueueResult(session.dialect().reader().inserted(id, job, now), false);
        }
      }
      // Another coordinator's job took the key between the check and the insert: look again.
    }
    throw new IllegalStateException(
        "unique key '" + unique.key() + "' kept changing hands; giving up");
  }

  /**
   * The job a key remembered after {@code now} points to, if the fingerprint matches; empty if the
   * key is free: never remembered, expired, or pointing at a job that retention or a purge deleted
   * (it has nothing left to return).
   *
   * @throws IdempotencyConflictException if a live key carries another fingerprint
   */
  public static Optional<Job> remembered(
      JdbcSession session, NewJob job, byte[] fingerprint, Instant now) throws SQLException {
    PreparedStatement select = session.prepare(LIVE_KEY);
    select.setString(1, job.queue());
    select.setString(2, job.idempotencyKey());
    session.dialect().setInstant(select, 3, now);
    long jobId;
    byte[] rememberedFingerprint;
    try (ResultSet row = select.executeQuery()) {
      if (!row.next()) {
        return Optional.empty();
      }
      jobId = row.getLong(1);
      rememberedFingerprint = row.getBytes(2);
    }
    Optional<Job> existing = JobRows.find(session, jobId);
    if (existing.isPresent() && !Arrays.equals(rememberedFingerprint, fingerprint)) {
      throw new IdempotencyConflictException(job.queue(), job.idempotencyKey(), jobId);
    }
    return existing;
  }

  /**
   * As {@link JobLifecycle#cancel} decides: PENDING becomes CANCELLED, RUNNING is flagged for its
   * worker, a finished job stays as it is.
   */
  public static Job cancel(JdbcSession session, long jobId, Instant now) throws SQLException {
    Job job =
        JobRows.findForUpdate(session, jobId).orElseThrow(() -> new JobNotFoundException(jobId));
    Decision<Cancellation> cancellation = JobLifecycle.cancel(JobStatus.of(job));
    if (cancellation.isRefused()) {
      return job;
    }
    return switch (cancellation.change()) {
      case CANCEL_NOW -> JobTransitions.apply(session, jobId, JobLifecycle.CANCEL_NOW, now);
      case ASK_WORKER -> JobTransitions.requestCancel(session, jobId, now);
      case ALREADY_ASKED -> job;
    };
  }
}
