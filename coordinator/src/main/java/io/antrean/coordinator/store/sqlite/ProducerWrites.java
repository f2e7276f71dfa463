package io.antrean.coordinator.store.sqlite;

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
import io.antrean.coordinator.store.jdbc.DurationColumns;
import io.antrean.coordinator.store.jdbc.Fingerprints;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** What producers change: new jobs (with idempotency keys) and cancellations. */
final class ProducerWrites {
  private static final String INSERT_JOB =
      "INSERT INTO jobs (queue, type, payload, content_type, priority, run_at, idempotency_key,"
          + " max_attempts, initial_backoff_micros, backoff_multiplier, max_backoff_micros,"
          + " max_lease_expiries, state, created_at, updated_at, trace_parent, unique_key)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?, ?) RETURNING id";
  private static final String ACTIVE_HOLDER =
      "SELECT id FROM jobs WHERE queue = ? AND unique_key = ? AND state IN ('PENDING', 'RUNNING')";
  private static final String SELECT_KEY =
      "SELECT job_id, fingerprint, expires_at FROM idempotency_keys WHERE queue = ? AND key = ?";
  private static final String REMEMBER_KEY =
      "INSERT OR REPLACE INTO idempotency_keys (queue, key, job_id, fingerprint, expires_at)"
          + " VALUES (?, ?, ?, ?, ?)";

  private ProducerWrites() {}

  /**
   * Stores the jobs in order. A key remembered after {@code now} with the same fingerprint yields
   * the existing job; with another fingerprint it throws, and the writer rolls the whole call back.
   * A key remembered until {@code now} or earlier has expired, and a key whose job was deleted
   * points nowhere: either is taken over by the new job.
   */
  static List<EnqueueResult> enqueue(CachedConnection connection, List<NewJob> jobs, Instant now)
      throws SQLException {
    List<EnqueueResult> results = new ArrayList<>(jobs.size());
    for (NewJob job : jobs) {
      byte[] fingerprint = job.idempotencyKey() == null ? null : Fingerprints.of(job);
      Optional<Job> existing =
          fingerprint == null ? Optional.empty() : remembered(connection, job, fingerprint, now);
      if (existing.isPresent()) {
        results.add(new EnqueueResult(existing.get(), true));
        continue;
      }
      Optional<Job> holder = activeHolder(connection, job);
      if (holder.isPresent()) {
        results.add(new EnqueueResult(holder.get(), true));
        continue;
      }
      Job stored = insert(connection, job, now);
      if (fingerprint != null) {
        PreparedStatement remember = connection.prepare(REMEMBER_KEY);
        remember.setString(1, job.queue());
        remember.setString(2, job.idempotencyKey());
        remember.setLong(3, stored.id());
        remember.setBytes(4, fingerprint);
        remember.setLong(5, Micros.of(job.idempotencyExpiresAt()));
        remember.executeUpdate();
      }
      results.add(new EnqueueResult(stored, false));
    }
    return results;
  }

  /** The job a live key points to, if the fingerprint matches; empty if the key is free. */
  private static Optional<Job> remembered(
      CachedConnection connection, NewJob job, byte[] fingerprint, Instant now)
      throws SQLException {
    PreparedStatement select = connection.prepare(SELECT_KEY);
    select.setString(1, job.queue());
    select.setString(2, job.idempotencyKey());
    long jobId;
    byte[] rememberedFingerprint;
    try (ResultSet row = select.executeQuery()) {
      if (!row.next() || row.getLong(3) <= Micros.of(now)) {
        return Optional.empty();
      }
      jobId = row.getLong(1);
      rememberedFingerprint = row.getBytes(2);
    }
    // A key whose job retention or a purge deleted is free: it has nothing left to return.
    Optional<Job> existing = JobRows.find(connection, jobId);
    if (existing.isPresent() && !Arrays.equals(rememberedFingerprint, fingerprint)) {
      throw new IdempotencyConflictException(job.queue(), job.idempotencyKey(), jobId);
    }
    return existing;
  }

  /**
   * The active job holding the job's unique key, if the job asked for it back; empty when the key
   * is free (the one writer makes this check and the insert after it atomic).
   *
   * @throws UniqueKeyConflictException if the key is held and the job asked to be refused
   */
  private static Optional<Job> activeHolder(CachedConnection connection, NewJob job)
      throws SQLException {
    UniqueKey unique = job.uniqueKey();
    if (unique == null) {
      return Optional.empty();
    }
    PreparedStatement select = connection.prepare(ACTIVE_HOLDER);
    select.setString(1, job.queue());
    select.setString(2, unique.key());
    long holder;
    try (ResultSet row = select.executeQuery()) {
      if (!row.next()) {
        return Optional.empty();
      }
      holder = row.getLong(1);
    }
    if (!unique.returnExisting()) {
      throw new UniqueKeyConflictException(job.queue(), unique.key(), holder);
    }
    return JobRows.find(connection, holder);
  }

  /** Inserts the job; the snapshot is built rather than read back, which halves the cost. */
  private static Job insert(CachedConnection connection, NewJob job, Instant now)
      throws SQLException {
    RetryPolicy policy = job.retryPolicy();
    PreparedStatement insert = connection.prepare(INSERT_JOB);
    insert.setString(1, job.queue());
    insert.setString(2, job.type());
    insert.setBytes(3, job.payload());
    insert.setString(4, job.contentType());
    insert.setInt(5, job.priority());
    insert.setLong(6, Micros.of(job.runAt()));
    insert.setString(7, job.idempotencyKey());
    insert.setInt(8, policy.maxAttempts());
    insert.setLong(9, DurationColumns.toMicros(policy.initialBackoff()));
    insert.setDouble(10, policy.multiplier());
    insert.setLong(11, DurationColumns.toMicros(policy.maxBackoff()));
    insert.setInt(12, policy.maxLeaseExpiries());
    insert.setLong(13, Micros.of(now));
    insert.setLong(14, Micros.of(now));
    insert.setString(15, job.traceParent());
    insert.setString(16, job.uniqueKey() == null ? null : job.uniqueKey().key());
    long id;
    try (ResultSet row = insert.executeQuery()) {
      if (!row.next()) {
        throw new IllegalStateException("INSERT ... RETURNING id returned no row");
      }
      id = row.getLong(1);
    }
    return JobRows.READER.inserted(id, job, now);
  }

  /**
   * As {@link JobLifecycle#cancel} decides: PENDING becomes CANCELLED, RUNNING is flagged for its
   * worker, a finished job stays as it is.
   */
  static Job cancel(CachedConnection connection, long jobId, Instant now) throws SQLException {
    Job job = JobRows.find(connection, jobId).orElseThrow(() -> new JobNotFoundException(jobId));
    Decision<Cancellation> cancellation = JobLifecycle.cancel(JobStatus.of(job));
    if (cancellation.isRefused()) {
      return job;
    }
    return switch (cancellation.change()) {
      case CANCEL_NOW -> JobTransitions.apply(connection, jobId, JobLifecycle.CANCEL_NOW, now);
      case ASK_WORKER -> JobTransitions.requestCancel(connection, jobId, now);
      case ALREADY_ASKED -> job;
    };
  }
}
