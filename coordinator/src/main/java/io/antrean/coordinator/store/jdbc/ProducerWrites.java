package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Cancellation;
import io.antrean.coordinator.job.Decision;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.IdempotencyConflictException;
import io.antrean.coordinator.store.JobNotFoundException;
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
  /** The columns and values of a new job; {@link #bindJob} binds its 15 parameters. */
  public static final String JOB_VALUES =
      "(queue, type, payload, content_type, priority, run_at, idempotency_key, max_attempts,"
          + " initial_backoff_micros, backoff_multiplier, max_backoff_micros, max_lease_expiries,"
          + " state, created_at, updated_at, trace_parent)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?)";

  /** Inserts one new job; see {@link #bindJob}. */
  public static final String INSERT_JOB = "INSERT INTO jobs " + JOB_VALUES;

  private static final String LIVE_KEY =
      "SELECT job_id, fingerprint FROM idempotency_keys"
          + " WHERE queue = ? AND key = ? AND expires_at > ?";

  private ProducerWrites() {}

  /** Binds the 15 parameters of {@link #JOB_VALUES}; returns the next parameter index. */
  public static int bindJob(JdbcDialect dialect, PreparedStatement insert, NewJob job, Instant now)
      throws SQLException {
    RetryPolicy policy = job.retryPolicy();
    insert.setString(1, job.queue());
    insert.setString(2, job.type());
    insert.setBytes(3, job.payload());
    insert.setString(4, job.contentType());
    insert.setInt(5, job.priority());
    dialect.setInstant(insert, 6, job.runAt());
    insert.setString(7, job.idempotencyKey());
    insert.setInt(8, policy.maxAttempts());
    insert.setLong(9, DurationColumns.toMicros(policy.initialBackoff()));
    insert.setDouble(10, policy.multiplier());
    insert.setLong(11, DurationColumns.toMicros(policy.maxBackoff()));
    insert.setInt(12, policy.maxLeaseExpiries());
    dialect.setInstant(insert, 13, now);
    dialect.setInstant(insert, 14, now);
    insert.setString(15, job.traceParent());
    return 16;
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
