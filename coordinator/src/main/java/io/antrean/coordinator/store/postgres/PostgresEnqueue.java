package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.jdbc.DurationColumns;
import io.antrean.coordinator.store.jdbc.Fingerprints;
import io.antrean.coordinator.store.jdbc.JdbcDialect;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.ProducerWrites;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Storing new jobs on PostgreSQL, where other coordinators enqueue at the same time.
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
final class PostgresEnqueue {
  // One job without a key, inserted in one statement committed on its own (autocommit).
  private static final String INSERT_JOB_RETURNING_ID =
      "INSERT INTO jobs " + ProducerWrites.JOB_VALUES + " RETURNING id";
  // Parameters: the 17 job values, then fingerprint, expiry, now. An expired key is taken over.
  private static final String INSERT_JOB_CLAIMING_KEY =
      "WITH new_job AS (INSERT INTO jobs "
          + ProducerWrites.JOB_VALUES
          + " RETURNING id, queue, idempotency_key),"
          + " claimed AS (INSERT INTO idempotency_keys (queue, key, job_id, fingerprint, expires_at)"
          + " SELECT queue, idempotency_key, id, ?, ? FROM new_job"
          + " ON CONFLICT (queue, key) DO UPDATE SET job_id = excluded.job_id,"
          + " fingerprint = excluded.fingerprint, expires_at = excluded.expires_at"
          + " WHERE idempotency_keys.expires_at <= ? RETURNING job_id)"
          + " SELECT new_job.id, claimed.job_id IS NOT NULL FROM new_job LEFT JOIN claimed ON true";
  // Jobs without keys, any number in one statement: one array per column, times as text in the
  // form Timestamps.literal writes. The identity draws each row's id as unnest yields it, in array
  // order, so the ids sorted are the jobs' ids in the order of the arrays.
  private static final String INSERT_UNNESTED =
      "INSERT INTO jobs (queue, type, payload, content_type, priority, run_at, max_attempts,"
          + " initial_backoff_micros, backoff_multiplier, max_backoff_micros, max_lease_expiries,"
          + " state, created_at, updated_at, trace_parent, concurrency_key)"
          + " SELECT queue, type, payload, content_type, priority, run_at::timestamptz,"
          + " max_attempts, initial_backoff, multiplier, max_backoff, max_lease_expiries,"
          + " 'PENDING', created_at::timestamptz, created_at::timestamptz, trace_parent,"
          + " concurrency_key FROM unnest(?::text[], ?::text[], ?::bytea[], ?::text[], ?::int4[],"
          + " ?::text[], ?::int4[], ?::int8[], ?::float8[], ?::int8[], ?::int4[], ?::text[],"
          + " ?::text[], ?::text[]) AS job (queue, type, payload, content_type, priority, run_at,"
          + " max_attempts, initial_backoff, multiplier, max_backoff, max_lease_expiries,"
          + " created_at, trace_parent, concurrency_key) RETURNING id";
  // The payloads of one INSERT_UNNESTED at most (unless one job's alone is more): its bytea[] is
  // one value, which PostgreSQL caps at 1 GiB, and the coordinator and the server each hold it
  // whole while the statement runs.
  static final long MAX_STATEMENT_PAYLOAD_BYTES = 16L << 20;
  private static final String DELETE_UNCLAIMED = "DELETE FROM jobs WHERE id = ?";
  // Locks are taken row by row in the subquery's (ascending) order.
  private static final String LOCK_KEYS =
      "SELECT pg_advisory_xact_lock(lock) FROM"
          + " (SELECT DISTINCT lock FROM unnest(?::bigint[]) AS lock ORDER BY lock) AS sorted";
  private static final int MAX_KEY_RACES = 3;

  private static final JdbcDialect DIALECT = PostgresDialect.INSTANCE;

  private PostgresEnqueue() {}

  /**
   * Stores the jobs in order; runs of jobs without a key go in one statement. A key remembered
   * after {@code now} with the same fingerprint yields the existing job; with another fingerprint
   * it throws, which rolls the whole call back.
   */
  static List<EnqueueResult> enqueue(JdbcSession session, List<NewJob> jobs, Instant now)
      throws SQLException {
    lockKeys(session, jobs);
    List<EnqueueResult> results = new ArrayList<>(jobs.size());
    List<NewJob> plain = new ArrayList<>();
    for (NewJob job : jobs) {
      if (job.idempotencyKey() == null && job.uniqueKey() == null) {
        plain.add(job);
        continue;
      }
      insertPlain(session, plain, now, results);
      results.add(
          job.uniqueKey() == null
              ? enqueueWithKey(session, job, now)
              : ProducerWrites.enqueueUnique(session, job, now));
    }
    insertPlain(session, plain, now, results);
    for (EnqueueResult result : results) {
      if (!result.deduplicated()) {
        session.jobsReady(result.job().queue());
      }
    }
    return results;
  }

  /** Whether the batch is one job without keys or dependencies ({@link #enqueueOnePlain}). */
  static boolean isOnePlainJob(List<NewJob> batch) {
    return batch.size() == 1
        && batch.get(0).idempotencyKey() == null
        && batch.get(0).uniqueKey() == null
        && !batch.get(0).dependsOn().any();
  }

  /**
   * Stores one job that has no idempotency key in one statement that is its own transaction (run it
   * with autocommit on), and names its queue ready. The common unary Enqueue.
   */
  static EnqueueResult enqueueOnePlain(JdbcSession session, NewJob job, Instant now)
      throws SQLException {
    if (job.idempotencyKey() != null || job.uniqueKey() != null) {
      throw new IllegalArgumentException("a job with an idempotency or unique key needs enqueue");
    }
    PreparedStatement insert = session.prepare(INSERT_JOB_RETURNING_ID);
    ProducerWrites.bindJob(DIALECT, insert, job, now);
    EnqueueResult result;
    try (ResultSet row = insert.executeQuery()) {
      if (!row.next()) {
        throw new IllegalStateException("the insert returned no id");
      }
      result = new EnqueueResult(DIALECT.reader().inserted(row.getLong(1), job, now), false);
    }
    session.jobsReady(job.queue());
    return result;
  }

  private static void lockKeys(JdbcSession session, List<NewJob> jobs) throws SQLException {
    List<Long> locks = new ArrayList<>();
    for (NewJob job : jobs) {
      if (job.idempotencyKey() != null) {
        locks.add(keyLock(job));
      }
    }
    if (locks.isEmpty()) {
      return;
    }
    PreparedStatement lock = session.prepare(LOCK_KEYS);
    lock.setArray(1, session.connection().createArrayOf("bigint", locks.toArray()));
    lock.executeQuery().close();
  }

  private static void insertPlain(
      JdbcSession session, List<NewJob> plain, Instant now, List<EnqueueResult> out)
      throws SQLException {
    if (plain.isEmpty()) {
      return;
    }
    out.addAll(insertAll(session, plain, Collections.nCopies(plain.size(), now)));
    plain.clear();
  }

  /**
   * Stores jobs without keys, each created at its own instant, and names their queues ready: the
   * Enqueue calls that arrived together ({@link GroupedInserts}). Jobs that {@link
   * #fitsOneStatement} go in one statement, which may be its own transaction (autocommit on).
   */
  static List<EnqueueResult> insertGroup(JdbcSession session, List<NewJob> jobs, List<Instant> nows)
      throws SQLException {
    List<EnqueueResult> results = insertAll(session, jobs, nows);
    for (NewJob job : jobs) {
      session.jobsReady(job.queue());
    }
    return results;
  }

  /** Whether {@code jobs} (without keys) are stored in one statement, rather than several. */
  static boolean fitsOneStatement(List<NewJob> jobs) {
    return statementStarts(jobs).size() == 1;
  }

  /**
   * Where each statement's share of {@code jobs} begins: a new one wherever the payloads would pass
   * {@link #MAX_STATEMENT_PAYLOAD_BYTES}, the first at 0 (and only that one for no jobs).
   */
  private static List<Integer> statementStarts(List<NewJob> jobs) {
    List<Integer> starts = new ArrayList<>(List.of(0));
    long payloadBytes = 0;
    for (int i = 0; i < jobs.size(); i++) {
      int bytes = jobs.get(i).payload().length;
      if (i > starts.get(starts.size() - 1) && payloadBytes + bytes > MAX_STATEMENT_PAYLOAD_BYTES) {
        starts.add(i);
        payloadBytes = 0;
      }
      payloadBytes += bytes;
    }
    return starts;
  }

  private static List<EnqueueResult> insertAll(
      JdbcSession session, List<NewJob> jobs, List<Instant> nows) throws SQLException {
    List<EnqueueResult> out = new ArrayList<>(jobs.size());
    List<Integer> starts = statementStarts(jobs);
    for (int k = 0; k < starts.size(); k++) {
      int from = starts.get(k);
      int to = k + 1 < starts.size() ? starts.get(k + 1) : jobs.size();
      insertUnnested(session, jobs.subList(from, to), nows.subList(from, to), out);
    }
    return out;
  }

  /** Stores the jobs with one {@link #INSERT_UNNESTED}; adds their results to {@code out}. */
  private static void insertUnnested(
      JdbcSession session, List<NewJob> jobs, List<Instant> nows, List<EnqueueResult> out)
      throws SQLException {
    int size = jobs.size();
    String[] queues = new String[size];
    String[] types = new String[size];
    byte[][] payloads = new byte[size][];
    String[] contentTypes = new String[size];
    Integer[] priorities = new Integer[size];
    String[] runAts = new String[size];
    Integer[] maxAttempts = new Integer[size];
    Long[] initialBackoffs = new Long[size];
    Double[] multipliers = new Double[size];
    Long[] maxBackoffs = new Long[size];
    Integer[] maxLeaseExpiries = new Integer[size];
    String[] createdAts = new String[size];
    String[] traceParents = new String[size];
    String[] concurrencyKeys = new String[size];
    for (int i = 0; i < size; i++) {
      NewJob job = jobs.get(i);
      RetryPolicy policy = job.retryPolicy();
      queues[i] = job.queue();
      types[i] = job.type();
      payloads[i] = job.payload();
      contentTypes[i] = job.contentType();
      priorities[i] = job.priority();
      runAts[i] = Timestamps.literal(job.runAt());
      maxAttempts[i] = policy.maxAttempts();
      initialBackoffs[i] = DurationColumns.toMicros(policy.initialBackoff());
      multipliers[i] = policy.multiplier();
      maxBackoffs[i] = DurationColumns.toMicros(policy.maxBackoff());
      maxLeaseExpiries[i] = policy.maxLeaseExpiries();
      createdAts[i] = Timestamps.literal(nows.get(i));
      traceParents[i] = job.traceParent();
      concurrencyKeys[i] = job.concurrencyKey();
    }
    Connection connection = session.connection();
    PreparedStatement insert = session.prepare(INSERT_UNNESTED);
    int index = 1;
    insert.setArray(index++, connection.createArrayOf("text", queues));
    insert.setArray(index++, connection.createArrayOf("text", types));
    insert.setArray(index++, connection.createArrayOf("bytea", payloads));
    insert.setArray(index++, connection.createArrayOf("text", contentTypes));
    insert.setArray(index++, connection.createArrayOf("int4", priorities));
    insert.setArray(index++, connection.createArrayOf("text", runAts));
    insert.setArray(index++, connection.createArrayOf("int4", maxAttempts));
    insert.setArray(index++, connection.createArrayOf("int8", initialBackoffs));
    insert.setArray(index++, connection.createArrayOf("float8", multipliers));
    insert.setArray(index++, connection.createArrayOf("int8", maxBackoffs));
    insert.setArray(index++, connection.createArrayOf("int4", maxLeaseExpiries));
    insert.setArray(index++, connection.createArrayOf("text", createdAts));
    insert.setArray(index++, connection.createArrayOf("text", traceParents));
    insert.setArray(index, connection.createArrayOf("text", concurrencyKeys));
    long[] ids = ProducerWrites.insertedIds(insert, size);
    for (int i = 0; i < size; i++) {
      out.add(
          new EnqueueResult(DIALECT.reader().inserted(ids[i], jobs.get(i), nows.get(i)), false));
    }
  }

  private static EnqueueResult enqueueWithKey(JdbcSession session, NewJob job, Instant now)
      throws SQLException {
    byte[] fingerprint = Fingerprints.of(job);
    for (int race = 0; race < MAX_KEY_RACES; race++) {
      Optional<Job> existing = ProducerWrites.remembered(session, job, fingerprint, now);
      if (existing.isPresent()) {
        return new EnqueueResult(existing.get(), true);
      }
      PreparedStatement insert = session.prepare(INSERT_JOB_CLAIMING_KEY);
      int next = ProducerWrites.bindJob(DIALECT, insert, job, now);
      insert.setBytes(next++, fingerprint);
      DIALECT.setInstant(insert, next++, job.idempotencyExpiresAt());
      DIALECT.setInstant(insert, next, now);
      long id;
      boolean claimed;
      try (ResultSet row = insert.executeQuery()) {
        row.next();
        id = row.getLong(1);
        claimed = row.getBoolean(2);
      }
      if (claimed) {
        return new EnqueueResult(DIALECT.reader().inserted(id, job, now), false);
      }
      // Another coordinator committed a live key first; its job is the answer.
      PreparedStatement delete = session.prepare(DELETE_UNCLAIMED);
      delete.setLong(1, id);
      delete.executeUpdate();
    }
    throw new IllegalStateException(
        "idempotency key '" + job.idempotencyKey() + "' kept changing hands; giving up");
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
}
