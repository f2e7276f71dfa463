package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.AnswerBudget;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.JdbcDialect;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import io.antrean.coordinator.store.jdbc.JobRows;
import io.antrean.coordinator.store.jdbc.LeaseGrants;
import io.antrean.coordinator.store.jdbc.Leases;
import io.antrean.coordinator.store.jdbc.QueueStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * PostgreSQL as the shared JDBC code sees it: instants as {@code timestamptz} ({@link Timestamps}),
 * row locks ({@code FOR UPDATE [SKIP LOCKED]}) because other coordinators change the same rows, the
 * folded error kept in its own column, byte-order sorting with {@code COLLATE "C"}, and failures
 * classified by SQLSTATE. Its hot paths are each one statement, one round trip, safe while other
 * coordinators do the same on the same database: a lease picks rows with {@code FOR UPDATE SKIP
 * LOCKED} (a row another transaction holds is passed over, a row changed since the statement began
 * is checked again), so no two coordinators lease one job; it walks the partial index {@code
 * jobs_pending} in order and stops after {@code maxJobs} rows. A completion is conditioned on the
 * token in the UPDATE's own WHERE clause, which PostgreSQL checks again against the latest row.
 */
final class PostgresDialect extends JdbcDialect {
  static final PostgresDialect INSTANCE = new PostgresDialect();

  /** SQLSTATE classes of a bug, https://www.postgresql.org/docs/current/errcodes-appendix.html */
  private static final Set<String> BUG_CLASSES = Set.of("0A", "22", "23", "42");

  private static final String SERIALIZATION_FAILURE = "40001";
  private static final String DEADLOCK_DETECTED = "40P01";

  // One statement completes the job and ends its attempt, conditioned on the token: returning the
  // whole job for the unary Complete, its id and queue for a batch of one.
  private static final String SUCCEED = succeedSql(JobRowReader.JOB_COLUMNS);
  private static final String SUCCEED_ID_AND_QUEUE = succeedSql(JobRows.ID_AND_QUEUE);
  // The same for a batch, in one statement: the jobs still held with their tokens are locked in id
  // order (so two batches naming the same jobs cannot deadlock), completed, and their attempts
  // ended. Item columns carry their own names so the jobs' columns stay unambiguous. The lock is
  // FOR NO KEY UPDATE, what the UPDATE takes anyway: it excludes every other writer of these jobs
  // but not the key share lock a stale rejection's attempts row takes on its job (AttemptRows), so
  // a batch recording the stale rejection of a job another batch holds does not wait for it; with
  // FOR UPDATE two batches doing that for each other's jobs, out of id order, deadlocked. The held
  // rows carry their items' results, so the UPDATE joins nothing but them: joined to the items
  // again, a generic plan (10 rows guessed for the unnest, 1 for the held rows) scanned every item
  // once per held job, 0.3 ms of a 44-job batch's 1.4 ms, and its square for larger batches.
  static final String SUCCEED_ALL =
      "WITH items AS (SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::bytea[], ?::text[],"
          + " ?::bytea[]) AS item (item_id, item_token, item_result, item_content_type,"
          + " item_lease_id)),"
          + " held AS MATERIALIZED (SELECT jobs.id AS held_id, items.item_result AS held_result,"
          + " items.item_content_type AS held_content_type FROM jobs"
          + " JOIN items ON jobs.id = items.item_id"
          + " WHERE jobs.state = 'RUNNING' AND jobs.lease_token = items.item_token"
          + " AND jobs.lease_worker_id = ? AND jobs.lease_id_sha256 = items.item_lease_id"
          + " AND NOT jobs.has_dependents"
          + " ORDER BY jobs.id FOR NO KEY UPDATE OF jobs),"
          + " done AS (UPDATE jobs SET state = 'SUCCEEDED', result = held.held_result,"
          + " result_content_type = held.held_content_type, finished_at = ?, updated_at = ?,"
          + " lease_worker_id = NULL, lease_expires_at = NULL"
          + " FROM held WHERE jobs.id = held.held_id RETURNING jobs.id, jobs.queue,"
          + " jobs.lease_token), ended AS (UPDATE attempts SET ended_at = ?,"
          + " outcome = 'SUCCEEDED' FROM done WHERE attempts.job_id = done.id"
          + " AND attempts.fencing_token = done.lease_token AND attempts.outcome = 'RUNNING')"
          + " SELECT "
          + JobRows.ID_AND_QUEUE
          + " FROM done";
  // One statement, so the counts and the ready figures agree with each other.
  private static final String COUNTS =
      "SELECT queue, state, count(*),"
          + " count(*) FILTER (WHERE state = 'PENDING' AND run_at <= ?),"
          + " min(run_at) FILTER (WHERE state = 'PENDING' AND run_at <= ?)"
          + " FROM jobs%s GROUP BY queue, state";

  /** One queue's unfinished jobs, the columns as {@link #COUNTS}' (migration V16). */
  private static final String UNFINISHED_COUNTS =
      "SELECT queue, state, jobs, ready, oldest_ready FROM unfinished_counts(?, ?)";

  private PostgresDialect() {}

  @Nullable
  @Override
  public Instant instant(ResultSet row, int column) throws SQLException {
    return Timestamps.get(row, column);
  }

  @Override
  public Instant asStored(Instant instant) {
    return Timestamps.truncate(instant);
  }

  @Override
  public void setInstant(PreparedStatement statement, int index, Instant instant)
      throws SQLException {
    Timestamps.set(statement, index, instant);
  }

  @Override
  public int instantSqlType() {
    return Types.TIMESTAMP_WITH_TIMEZONE;
  }

  @Override
  public String byteOrder(String column) {
    return column + " COLLATE \"C\"";
  }

  /**
   * {@link IllegalStateException} for what only a bug in this store or a wrong schema can cause
   * (bad SQL, a violated constraint, a data type mismatch); {@link StoreUnavailableException} for
   * the rest (a lost connection, a server shutting down, no free connection in time).
   */
  @Override
  public RuntimeException translate(String what, SQLException e) {
    String state = e.getSQLState();
    if (state != null && state.length() == 5 && BUG_CLASSES.contains(state.substring(0, 2))) {
      return new IllegalStateException(
          what + " failed on a store bug (SQLSTATE " + state + "): " + e.getMessage(), e);
    }
    return new StoreUnavailableException(what + " failed: " + e.getMessage(), e);
  }

  /**
   * True when the server aborted the transaction only because of another one running at the same
   * time; running it again from the start is safe and will most likely succeed.
   */
  static boolean isRetryable(SQLException e) {
    return SERIALIZATION_FAILURE.equals(e.getSQLState())
        || DEADLOCK_DETECTED.equals(e.getSQLState());
  }

  @Override
  public String migrationsLocation() {
    return "classpath:db/postgres";
  }

  private static String succeedSql(String returning) {
    return "WITH done AS (UPDATE jobs SET state = 'SUCCEEDED', result = ?, result_content_type = ?,"
        + " finished_at = ?, updated_at = ?, lease_worker_id = NULL, lease_expires_at = NULL"
        + " WHERE id = ? AND state = 'RUNNING' AND lease_token = ? AND lease_worker_id = ?"
        + " AND lease_id_sha256 = ?"
        // A job others depend on completes in WorkerWrites.completeWithDependents.
        + " AND NOT has_dependents RETURNING "
        + returning
        + "), ended AS (UPDATE attempts SET ended_at = ?, outcome = 'SUCCEEDED'"
        + " FROM done WHERE attempts.job_id = done.id AND attempts.fencing_token = ?"
        + " AND attempts.outcome = 'RUNNING')"
        + " SELECT "
        + returning
        + " FROM done";
  }

  /**
   * One statement picks, leases and opens each job's history entry: the function {@code lease_jobs}
   * (migration V14; V13 without the budget), whose plan PostgreSQL makes once per connection
   * instead of at every call, and which walks {@code jobs_pending} in order whatever the planner
   * statistics say (V15: sorting turned off for the function). Parameters: queue, now, types (null:
   * any type), limit, the lease-id digests (the n-th picked job takes the n-th), worker id, expiry,
   * the payload budget ({@link AnswerBudget}).
   */
  static final String LEASE =
      "SELECT "
          + JobRowReader.JOB_COLUMNS
          + " FROM lease_jobs(?, ?, ?::text[], ?, ?::bytea[], ?, ?, ?)";

  @Override
  public List<Job> lease(JdbcSession session, LeaseSpec spec, Instant now) throws SQLException {
    PreparedStatement lease = session.prepare(LEASE);
    List<LeaseId> leaseIds = LeaseGrants.newLeaseIds(spec.maxJobs());
    Connection connection = session.connection();
    lease.setString(1, spec.queue());
    Timestamps.set(lease, 2, now);
    lease.setArray(
        3,
        spec.types().isEmpty() ? null : connection.createArrayOf("text", spec.types().toArray()));
    lease.setInt(4, spec.maxJobs());
    lease.setArray(5, connection.createArrayOf("bytea", LeaseGrants.digests(leaseIds)));
    lease.setString(6, spec.workerId());
    Timestamps.set(lease, 7, spec.expiresAt());
    lease.setLong(8, AnswerBudget.PAYLOAD_BYTES);
    List<Job> leased =
        LeaseGrants.withTexts(Leases.inGrantOrder(JobRows.jobs(session, lease)), leaseIds);
    if (AnswerBudget.cutShort(leased, spec.maxJobs())) {
      // The budget cut the lease: the jobs it picked and left stay locked until the commit, and a
      // lease meanwhile passed over them as if the queue were empty. Have waiters look again.
      session.jobsReady(spec.queue());
    }
    return leased;
  }

  /**
   * Every completion in one statement, one round trip however many there are; a lone one in the
   * simpler statement of the unary Complete.
   */
  @Override
  public Map<Long, String> succeedAll(
      JdbcSession session, String workerId, List<Completion> completions, Instant now)
      throws SQLException {
    int size = completions.size();
    if (size == 1) {
      Map<Long, String> done = new HashMap<>();
      JobRows.queuesById(
          succeedStatement(session, SUCCEED_ID_AND_QUEUE, completions.get(0), workerId, now), done);
      return done;
    }
    Object[] ids = new Object[size];
    Object[] tokens = new Object[size];
    byte[][] results = new byte[size][];
    Object[] contentTypes = new Object[size];
    byte[][] leaseIds = new byte[size][];
    for (int i = 0; i < size; i++) {
      Completion c = completions.get(i);
      ids[i] = c.jobId();
      tokens[i] = c.fencingToken();
      results[i] = c.result();
      contentTypes[i] = c.resultContentType();
      leaseIds[i] = c.lease().leaseIdSha256();
    }
    Connection connection = session.connection();
    PreparedStatement update = session.prepare(SUCCEED_ALL);
    update.setArray(1, connection.createArrayOf("bigint", ids));
    update.setArray(2, connection.createArrayOf("bigint", tokens));
    update.setArray(3, connection.createArrayOf("bytea", results));
    update.setArray(4, connection.createArrayOf("text", contentTypes));
    // Digests compared: timing cannot help build a matching lease id (see LeaseId).
    update.setArray(5, connection.createArrayOf("bytea", leaseIds));
    update.setString(6, workerId);
    Timestamps.set(update, 7, now);
    Timestamps.set(update, 8, now);
    Timestamps.set(update, 9, now);
    Map<Long, String> done = new HashMap<>();
    JobRows.queuesById(update, done);
    return done;
  }

  /** The unary Complete in one statement that returns the whole job. */
  @Override
  public Optional<Job> succeed(
      JdbcSession session, String workerId, Completion completion, Instant now)
      throws SQLException {
    List<Job> done =
        JobRows.jobs(session, succeedStatement(session, SUCCEED, completion, workerId, now));
    return done.isEmpty() ? Optional.empty() : Optional.of(done.get(0));
  }

  /** {@code sql}, one of {@link #succeedSql}'s, prepared with the completion's parameters. */
  private static PreparedStatement succeedStatement(
      JdbcSession session, String sql, Completion completion, String workerId, Instant now)
      throws SQLException {
    PreparedStatement update = session.prepare(sql);
    update.setBytes(1, completion.result());
    update.setString(2, completion.resultContentType());
    Timestamps.set(update, 3, now);
    Timestamps.set(update, 4, now);
    update.setLong(5, completion.jobId());
    update.setLong(6, completion.fencingToken());
    update.setString(7, workerId);
    update.setBytes(8, completion.lease().leaseIdSha256());
    Timestamps.set(update, 9, now);
    update.setLong(10, completion.fencingToken());
    return update;
  }

  @Override
  public List<QueueCounts> stats(
      JdbcSession session, @Nullable String queue, Instant now, boolean unfinishedOnly)
      throws SQLException {
    QueueStats stats = new QueueStats(queue);
    PreparedStatement counts;
    if (unfinishedOnly && queue != null) {
      counts = session.prepare(UNFINISHED_COUNTS);
      counts.setString(1, queue);
      Timestamps.set(counts, 2, now);
    } else {
      String where =
          unfinishedOnly
              ? " WHERE " + QueueStats.UNFINISHED
              : queue == null ? "" : " WHERE queue = ?";
      counts = session.prepare(COUNTS.formatted(where));
      Timestamps.set(counts, 1, now);
      Timestamps.set(counts, 2, now);
      if (queue != null) {
        counts.setString(3, queue);
      }
    }
    try (ResultSet rows = counts.executeQuery()) {
      while (rows.next()) {
        String name = rows.getString(1);
        stats.count(name, JobState.valueOf(rows.getString(2)), rows.getLong(3));
        Instant oldest = Timestamps.get(rows, 5);
        if (oldest != null) {
          stats.ready(name, rows.getLong(4), oldest);
        }
      }
    }
    return stats.counts(now);
  }

  @Override
  public List<EnqueueResult> enqueue(JdbcSession session, List<NewJob> jobs, Instant now)
      throws SQLException {
    return PostgresEnqueue.enqueue(session, jobs, now);
  }
}
