package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Cancellation;
import io.antrean.coordinator.job.Decision;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.UniqueKey;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.IdempotencyConflictException;
import io.antrean.coordinator.store.JobNotFoundException;
import io.antrean.coordinator.store.UniqueKeyConflictException;
import io.antrean.coordinator.store.jdbc.DurationColumns;
import io.antrean.coordinator.store.jdbc.Fingerprints;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What producers change: new jobs (with idempotency keys) and cancellations.
 *
 * <p>The database decides which of two coordinators racing with one idempotency key stores the job:
 * the key's primary key and {@code INSERT ... ON CONFLICT} make the second insert wait for the
 * first transaction and then see its key. The loser deletes the job it inserted in its own,
 * uncommitted transaction (nobody else ever saw it) and answers with the winner's job.
 *
 * <p>Before touching any key, a call takes a transaction-scoped advisory lock per key, all in one
 * order (see {@link #keyLock}): two batches holding the same keys in opposite orders then queue up
 * behind each other instead of deadlocking.
 */
final class ProducerWrites {
  private static final String JOB_VALUES =
      "(queue, type, payload, content_type, priority, run_at, idempotency_key, max_attempts,"
          + " initial_backoff_micros, backoff_multiplier, max_backoff_micros, max_lease_expiries,"
          + " state, created_at, updated_at, trace_parent, unique_key)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?, ?)";
  private static final String INSERT_JOB = "INSERT INTO jobs " + JOB_VALUES;
  // One job without a key as one statement run on its own (autocommit): the insert and the
  // notification of its queue commit together in one round trip, instead of three (insert, notify,
  // commit). The notifying CTE is volatile, so it is never inlined away, and is read to run it.
  private static final String INSERT_JOB_NOTIFYING =
      "WITH new_job AS (INSERT INTO jobs "
          + JOB_VALUES
          + " RETURNING id, queue),"
          + " notified AS (SELECT pg_notify('"
          + Tx.JOBS_READY_CHANNEL
          + "', queue) FROM new_job)"
          + " SELECT new_job.id FROM new_job, (SELECT count(*) FROM notified) AS sent";
  private static final String LIVE_KEY =
      "SELECT job_id, fingerprint FROM idempotency_keys"
          + " WHERE queue = ? AND key = ? AND expires_at > ?";
  // Parameters: the 16 job values, then fingerprint, expiry, now. An expired key is taken over.
  private static final String INSERT_JOB_CLAIMING_KEY =
      "WITH new_job AS (INSERT INTO jobs "
          + JOB_VALUES
          + " RETURNING id, queue, idempotency_key),"
          + " claimed AS (INSERT INTO idempotency_keys (queue, key, job_id, fingerprint, expires_at)"
          + " SELECT queue, idempotency_key, id, ?, ? FROM new_job"
          + " ON CONFLICT (queue, key) DO UPDATE SET job_id = excluded.job_id,"
          + " fingerprint = excluded.fingerprint, expires_at = excluded.expires_at"
          + " WHERE idempotency_keys.expires_at <= ? RETURNING job_id)"
          + " SELECT new_job.id, claimed.job_id IS NOT NULL FROM new_job LEFT JOIN claimed ON true";
  private static final String DELETE_UNCLAIMED = "DELETE FROM jobs WHERE id = ?";
  private static final String ACTIVE_HOLDER =
      "SELECT id FROM jobs WHERE queue = ? AND unique_key = ? AND state IN ('PENDING', 'RUNNING')";
  // The partial unique index decides between racing coordinators: the second insert waits for the
  // first transaction and, once it commits, inserts nothing.
  private static final String INSERT_JOB_UNLESS_KEY_ACTIVE =
      "INSERT INTO jobs "
          + JOB_VALUES
          + " ON CONFLICT (queue, unique_key)"
          + " WHERE unique_key IS NOT NULL AND state IN ('PENDING', 'RUNNING') DO NOTHING"
          + " RETURNING id";
  // Locks are taken row by row in the subquery's (ascending) order.
  private static final String LOCK_KEYS =
      "SELECT pg_advisory_xact_lock(lock) FROM"
          + " (SELECT DISTINCT lock FROM unnest(?::bigint[]) AS lock ORDER BY lock) AS sorted";
  private static final int MAX_KEY_RACES = 3;

  private ProducerWrites() {}

  /**
   * Stores the jobs in order; runs of jobs without a key go in one batch. A key remembered after
   * {@code now} with the same fingerprint yields the existing job; with another fingerprint it
   * throws, which rolls the whole call back.
   */
  static List<EnqueueResult> enqueue(Tx tx, List<NewJob> jobs, Instant now) throws SQLException {
    lockKeys(tx, jobs);
    List<EnqueueResult> results = new ArrayList<>(jobs.size());
    List<NewJob> plain = new ArrayList<>();
    for (NewJob job : jobs) {
      if (job.idempotencyKey() == null && job.uniqueKey() == null) {
        plain.add(job);
        continue;
      }
      insertPlain(tx, plain, now, results);
      results.add(
          job.uniqueKey() == null ? enqueueWithKey(tx, job, now) : enqueueUnique(tx, job, now));
    }
    insertPlain(tx, plain, now, results);
    for (EnqueueResult result : results) {
      if (!result.deduplicated()) {
        tx.jobsReady(result.job().queue());
      }
    }
    return results;
  }

  /**
   * Stores one job that has no idempotency key and tells the other coordinators, in one statement
   * that is its own transaction: run it with autocommit on. The common unary Enqueue.
   */
  static EnqueueResult enqueueOnePlain(Tx tx, NewJob job, Instant now) throws SQLException {
    if (job.idempotencyKey() != null || job.uniqueKey() != null) {
      throw new IllegalArgumentException("a job with an idempotency or unique key needs enqueue");
    }
    PreparedStatement insert = tx.prepare(INSERT_JOB_NOTIFYING);
    bindJob(insert, job, now);
    try (ResultSet row = insert.executeQuery()) {
      if (!row.next()) {
        throw new IllegalStateException("the insert returned no id");
      }
      return new EnqueueResult(JobRows.READER.inserted(row.getLong(1), job, now), false);
    }
  }

  private static void lockKeys(Tx tx, List<NewJob> jobs) throws SQLException {
    List<Long> locks = new ArrayList<>();
    for (NewJob job : jobs) {
      if (job.idempotencyKey() != null) {
        locks.add(keyLock(job));
      }
    }
    if (locks.isEmpty()) {
      return;
    }
    PreparedStatement lock = tx.prepare(LOCK_KEYS);
    lock.setArray(1, tx.bigintArray(locks));
    lock.executeQuery().close();
  }

  private static void insertPlain(Tx tx, List<NewJob> plain, Instant now, List<EnqueueResult> out)
      throws SQLException {
    if (plain.isEmpty()) {
      return;
    }
    PreparedStatement insert = tx.prepareReturningId(INSERT_JOB);
    for (NewJob job : plain) {
      bindJob(insert, job, now);
      insert.addBatch();
    }
    insert.executeBatch();
    try (ResultSet ids = insert.getGeneratedKeys()) {
      for (NewJob job : plain) {
        if (!ids.next()) {
          throw new IllegalStateException("a batched insert returned fewer ids than jobs");
        }
        out.add(new EnqueueResult(JobRows.READER.inserted(ids.getLong(1), job, now), false));
      }
    }
    plain.clear();
  }

  private static EnqueueResult enqueueWithKey(Tx tx, NewJob job, Instant now) throws SQLException {
    byte[] fingerprint = Fingerprints.of(job);
    for (int race = 0; race < MAX_KEY_RACES; race++) {
      Optional<Job> existing = remembered(tx, job, fingerprint, now);
      if (existing.isPresent()) {
        return new EnqueueResult(existing.get(), true);
      }
      PreparedStatement insert = tx.prepare(INSERT_JOB_CLAIMING_KEY);
      int next = bindJob(insert, job, now);
      insert.setBytes(next++, fingerprint);
      Timestamps.set(insert, next++, job.idempotencyExpiresAt());
      Timestamps.set(insert, next, now);
      long id;
      boolean claimed;
      try (ResultSet row = insert.executeQuery()) {
        row.next();
        id = row.getLong(1);
        claimed = row.getBoolean(2);
      }
      if (claimed) {
        return new EnqueueResult(JobRows.READER.inserted(id, job, now), false);
      }
      // Another coordinator committed a live key first; its job is the answer.
      PreparedStatement delete = tx.prepare(DELETE_UNCLAIMED);
      delete.setLong(1, id);
      delete.executeUpdate();
    }
    throw new IllegalStateException(
        "idempotency key '" + job.idempotencyKey() + "' kept changing hands; giving up");
  }

  /**
   * Stores a job with a unique key unless an active job holds the key. The coordinator validates
   * that such a job carries no idempotency key.
   *
   * @throws UniqueKeyConflictException if the key is held and the job asked to be refused
   */
  private static EnqueueResult enqueueUnique(Tx tx, NewJob job, Instant now) throws SQLException {
    UniqueKey unique = job.uniqueKey();
    for (int race = 0; race < MAX_KEY_RACES; race++) {
      PreparedStatement select = tx.prepare(ACTIVE_HOLDER);
      select.setString(1, job.queue());
      select.setString(2, unique.key());
      try (ResultSet row = select.executeQuery()) {
        if (row.next()) {
          long holder = row.getLong(1);
          if (!unique.returnExisting()) {
            throw new UniqueKeyConflictException(job.queue(), unique.key(), holder);
          }
          Optional<Job> existing = JobRows.find(tx, holder);
          if (existing.isPresent()) {
            return new EnqueueResult(existing.get(), true);
          }
          continue;
        }
      }
      PreparedStatement insert = tx.prepare(INSERT_JOB_UNLESS_KEY_ACTIVE);
      bindJob(insert, job, now);
      try (ResultSet row = insert.executeQuery()) {
        if (row.next()) {
          return new EnqueueResult(JobRows.READER.inserted(row.getLong(1), job, now), false);
        }
      }
      // Another coordinator's job took the key between the check and the insert: look again.
    }
    throw new IllegalStateException(
        "unique key '" + unique.key() + "' kept changing hands; giving up");
  }

  /** The job a live key points to, if the fingerprint matches; empty if the key is free. */
  private static Optional<Job> remembered(Tx tx, NewJob job, byte[] fingerprint, Instant now)
      throws SQLException {
    PreparedStatement select = tx.prepare(LIVE_KEY);
    select.setString(1, job.queue());
    select.setString(2, job.idempotencyKey());
    Timestamps.set(select, 3, now);
    long jobId;
    try (ResultSet row = select.executeQuery()) {
      if (!row.next()) {
        return Optional.empty();
      }
      jobId = row.getLong(1);
      if (!Arrays.equals(row.getBytes(2), fingerprint)) {
        throw new IdempotencyConflictException(job.queue(), job.idempotencyKey(), jobId);
      }
    }
    return JobRows.find(tx, jobId);
  }

  /** Binds the 16 job values; returns the next parameter index. */
  private static int bindJob(PreparedStatement insert, NewJob job, Instant now)
      throws SQLException {
    insert.setString(1, job.queue());
    insert.setString(2, job.type());
    insert.setBytes(3, job.payload());
    insert.setString(4, job.contentType());
    insert.setInt(5, job.priority());
    Timestamps.set(insert, 6, job.runAt());
    insert.setString(7, job.idempotencyKey());
    insert.setInt(8, job.retryPolicy().maxAttempts());
    insert.setLong(9, DurationColumns.toMicros(job.retryPolicy().initialBackoff()));
    insert.setDouble(10, job.retryPolicy().multiplier());
    insert.setLong(11, DurationColumns.toMicros(job.retryPolicy().maxBackoff()));
    insert.setInt(12, job.retryPolicy().maxLeaseExpiries());
    Timestamps.set(insert, 13, now);
    Timestamps.set(insert, 14, now);
    insert.setString(15, job.traceParent());
    insert.setString(16, job.uniqueKey() == null ? null : job.uniqueKey().key());
    return 17;
  }

  /**
   * The advisory lock id of the job's idempotency key: 64 bits of SHA-256 over a namespace, the
   * queue and the key. Two keys sharing an id (vanishingly rare) only wait for each other.
   */
  private static long keyLock(NewJob job) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update("antrean idempotency key\0".getBytes(StandardCharsets.UTF_8));
      byte[] queue = job.queue().getBytes(StandardCharsets.UTF_8);
      digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(queue.length).array());
      digest.update(queue);
      digest.update(job.idempotencyKey().getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest.digest()).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /**
   * As {@link JobLifecycle#cancel} decides: PENDING becomes CANCELLED, RUNNING is flagged for its
   * worker, a finished job stays as it is.
   */
  static Job cancel(Tx tx, long jobId, Instant now) throws SQLException {
    Job job = JobRows.findForUpdate(tx, jobId).orElseThrow(() -> new JobNotFoundException(jobId));
    Decision<Cancellation> cancellation = JobLifecycle.cancel(JobStatus.of(job));
    if (cancellation.isRefused()) {
      return job;
    }
    return switch (cancellation.change()) {
      case CANCEL_NOW -> JobTransitions.apply(tx, jobId, JobLifecycle.CANCEL_NOW, now);
      case ASK_WORKER -> JobTransitions.requestCancel(tx, jobId, now);
      case ALREADY_ASKED -> job;
    };
  }
}
