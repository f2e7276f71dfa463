package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.AnswerBudget;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.Fingerprints;
import io.antrean.coordinator.store.jdbc.JdbcDialect;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.LimitedLeases;
import io.antrean.coordinator.store.jdbc.ProducerWrites;
import io.antrean.coordinator.store.jdbc.QueueRows;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * SQLite as the shared JDBC code sees it: instants as epoch microseconds in INTEGER columns ({@link
 * Micros}), index hints ({@code INDEXED BY}) where the planner might otherwise scan, no row locks
 * (the single writer thread excludes every other change), case folding by a function registered on
 * each read connection ({@link CaseFolding}), and result codes classified by their primary code.
 * Its hot paths run on the writer thread, which checks and changes in one go without any race.
 */
final class SqliteDialect extends JdbcDialect {
  static final SqliteDialect INSTANCE = new SqliteDialect();

  // Primary SQLite result codes, https://sqlite.org/rescode.html
  private static final int SQLITE_ERROR = 1;
  private static final int SQLITE_CONSTRAINT = 19;
  private static final int SQLITE_MISMATCH = 20;
  private static final int SQLITE_MISUSE = 21;
  private static final int SQLITE_RANGE = 25;

  // A payload kept apart has NULL in its row; length() of a blob reads its size, not its bytes.
  private static final String PAYLOAD_LENGTH =
      "coalesce(length(payload), (SELECT length(p.payload) FROM job_payloads AS p"
          + " WHERE p.job_id = jobs.id))";

  private static final String QUEUE_FOR_LEASE = QueueRows.forLeaseSql("");
  private static final String REMEMBER_KEY =
      "INSERT OR REPLACE INTO idempotency_keys (queue, key, job_id, fingerprint, expires_at)"
          + " VALUES (?, ?, ?, ?, ?)";

  private SqliteDialect() {}

  @Nullable
  @Override
  public Instant instant(ResultSet row, int column) throws SQLException {
    long micros = row.getLong(column);
    return row.wasNull() ? null : Micros.toInstant(micros);
  }

  @Override
  public Instant asStored(Instant instant) {
    return Micros.truncate(instant);
  }

  /** A long payload as NULL, kept apart ({@link JobPayloads}). */
  @Override
  public void bindPayload(PreparedStatement insert, int index, byte[] payload) throws SQLException {
    JobPayloads.bind(insert, index, payload);
  }

  @Override
  public void storePayloadApart(JdbcSession session, long jobId, byte[] payload)
      throws SQLException {
    JobPayloads.storeApart(session, jobId, payload);
  }

  /** Into {@code queue_counts}, whose trigger leaves these moves out (migration V14). */
  @Override
  public void countMoved(JdbcSession session, String queue, JobState from, JobState to, int jobs)
      throws SQLException {
    QueueCountRows.moved(session, queue, from, to, jobs);
  }

  @Override
  public byte[] payloadApart(JdbcSession session, long jobId) throws SQLException {
    return JobPayloads.readApart(session, jobId);
  }

  /** SQLite may hand a zero-length blob back as null, so NULL is told apart here. */
  @Nullable
  @Override
  public byte[] bytes(ResultSet row, int column) throws SQLException {
    byte[] bytes = row.getBytes(column);
    if (bytes != null) {
      return bytes;
    }
    return row.getObject(column) == null ? null : new byte[0];
  }

  @Override
  public void setInstant(PreparedStatement statement, int index, Instant instant)
      throws SQLException {
    statement.setLong(index, Micros.of(instant));
  }

  @Override
  public int instantSqlType() {
    return Types.INTEGER;
  }

  @Override
  public String lockRows() {
    return "";
  }

  @Override
  public String lockRowsSkipLocked() {
    return "";
  }

  @Override
  public String lockKey() {
    return "";
  }

  @Override
  public String indexHint(String index) {
    return " INDEXED BY " + index;
  }

  /** SQLite's default collation, BINARY, already sorts by bytes. */
  @Override
  public String byteOrder(String column) {
    return column;
  }

  @Override
  public String lastErrorContains() {
    return "instr(" + CaseFolding.FUNCTION + "(last_error), ?) > 0";
  }

  @Override
  public boolean storesFoldedError() {
    return false;
  }

  /**
   * {@link StoreUnavailableException} for I/O, a full disk, a lock held too long or a closed store;
   * {@link IllegalStateException} for bad SQL, a violated constraint or a type mismatch.
   */
  @Override
  public RuntimeException translate(String what, SQLException e) {
    int primaryCode = e.getErrorCode() & 0xFF;
    return switch (primaryCode) {
      case SQLITE_ERROR, SQLITE_CONSTRAINT, SQLITE_MISMATCH, SQLITE_MISUSE, SQLITE_RANGE ->
          new IllegalStateException(what + " failed on a store bug: " + e.getMessage(), e);
      default -> new StoreUnavailableException(what + " failed: " + e.getMessage(), e);
    };
  }

  @Override
  public String migrationsLocation() {
    return "classpath:db/sqlite";
  }

  /**
   * The pick of a lease for a filter on {@code typeCount} job types (0: any type): the ids, payload
   * lengths, priorities and run times of the first ready jobs in lease order. Parameters: queue,
   * now (run_at), the types, the limit.
   */
  static String pickSql(int typeCount) {
    String typeFilter =
        typeCount == 0
            ? ""
            : " AND type IN (" + String.join(", ", Collections.nCopies(typeCount, "?")) + ")";
    return "SELECT id, "
        + PAYLOAD_LENGTH
        + ", priority, run_at FROM jobs INDEXED BY jobs_pending"
        + " WHERE state = 'PENDING' AND queue = ? AND run_at <= ?"
        + typeFilter
        + " ORDER BY priority DESC, run_at, id LIMIT ?";
  }

  /** A PENDING job a lease may take: its id, its payload's length, and its order's keys. */
  record Picked(long id, long payloadLength, int priority, long runAtMicros) {}

  /**
   * The only writer reads the queue's pause flag and limits first; a queue with limits leases
   * through {@link LimitedLeases}. Otherwise it walks the partial index {@code jobs_pending} in
   * order, stops after {@code maxJobs} ready rows, and grants them their leases ({@link
   * BatchWrites#grant}: the rows by their ids, then their history entries, a chunk of jobs per
   * statement). Nothing else writes between the pick and the grants.
   */
  @Override
  public List<Job> lease(JdbcSession session, LeaseSpec spec, Instant now) throws SQLException {
    // The only writer checks first, so a pause or limit committed before this operation holds.
    QueueRows.ForLease queue = forLease(session, spec.queue());
    if (queue.paused()) {
      return List.of();
    }
    if (queue.limits().limited()) {
      return LimitedLeases.lease(session, spec, queue, now);
    }
    return leaseUnlimited(session, spec, now);
  }

  /** The queue's pause flag and limits, as a lease reads them. */
  static QueueRows.ForLease forLease(JdbcSession session, String queue) throws SQLException {
    return QueueRows.readForLease(session.prepare(QUEUE_FOR_LEASE), queue);
  }

  /** {@link #lease} in a queue neither paused nor limited. */
  static List<Job> leaseUnlimited(JdbcSession session, LeaseSpec spec, Instant now)
      throws SQLException {
    List<Long> ids = new ArrayList<>(spec.maxJobs());
    long payloadBytes = 0;
    for (Picked picked : pick(session, spec, now)) {
      if (!AnswerBudget.hasRoom(payloadBytes)) {
        break;
      }
      ids.add(picked.id());
      payloadBytes += picked.payloadLength();
    }
    return BatchWrites.grant(session, spec, ids, now);
  }

  /** The first {@code spec.maxJobs()} ready jobs of the lease's queue, in lease order. */
  static List<Picked> pick(JdbcSession session, LeaseSpec spec, Instant now) throws SQLException {
    List<String> types = List.copyOf(spec.types());
    PreparedStatement pick = session.prepare(pickSql(types.size()));
    int index = 1;
    pick.setString(index++, spec.queue());
    pick.setLong(index++, Micros.of(now));
    for (String type : types) {
      pick.setString(index++, type);
    }
    pick.setInt(index, spec.maxJobs());
    List<Picked> picked = new ArrayList<>(spec.maxJobs());
    try (ResultSet rows = pick.executeQuery()) {
      while (rows.next()) {
        picked.add(new Picked(rows.getLong(1), rows.getLong(2), rows.getInt(3), rows.getLong(4)));
      }
    }
    return picked;
  }

  @Override
  public String payloadLengthSql() {
    return PAYLOAD_LENGTH;
  }

  // length() of a BLOB reads its size from the record, without its bytes.
  @Override
  public String blobBytesSql(String column) {
    return "coalesce(length(" + column + "), 0)";
  }

  // length() of a TEXT counts characters; of a BLOB, bytes.
  @Override
  public String textBytesSql(String column) {
    return "coalesce(length(CAST(" + column + " AS BLOB)), 0)";
  }

  /**
   * Stores the jobs in order, each run of {@link NewJobRows#keyless} jobs in shared statements. A
   * key that is free ({@link ProducerWrites#remembered}) is taken over by the new job.
   */
  @Override
  public List<EnqueueResult> enqueue(JdbcSession session, List<NewJob> jobs, Instant now)
      throws SQLException {
    List<EnqueueResult> results = new ArrayList<>(jobs.size());
    int keylessFrom = 0;
    for (int i = 0; i < jobs.size(); i++) {
      NewJob job = jobs.get(i);
      if (NewJobRows.keyless(job)) {
        continue;
      }
      results.addAll(NewJobRows.enqueue(session, jobs.subList(keylessFrom, i), now));
      keylessFrom = i + 1;
      results.add(enqueueKeyed(session, job, now));
    }
    results.addAll(NewJobRows.enqueue(session, jobs.subList(keylessFrom, jobs.size()), now));
    return results;
  }

  /** A job with a unique key or an idempotency key. */
  private EnqueueResult enqueueKeyed(JdbcSession session, NewJob job, Instant now)
      throws SQLException {
    if (job.uniqueKey() != null) {
      return ProducerWrites.enqueueUnique(session, job, now);
    }
    byte[] fingerprint = Fingerprints.of(job);
    Optional<Job> existing = ProducerWrites.remembered(session, job, fingerprint, now);
    if (existing.isPresent()) {
      return new EnqueueResult(existing.get(), true);
    }
    Job stored = NewJobRows.insert(session, List.of(job), now).get(0);
    PreparedStatement remember = session.prepare(REMEMBER_KEY);
    remember.setString(1, job.queue());
    remember.setString(2, job.idempotencyKey());
    remember.setLong(3, stored.id());
    remember.setBytes(4, fingerprint);
    remember.setLong(5, Micros.of(job.idempotencyExpiresAt()));
    remember.executeUpdate();
    return new EnqueueResult(stored, false);
  }

  /** One statement and its history entry's ({@link BatchWrites#succeedOne}). */
  @Override
  public Optional<Job> succeed(
      JdbcSession session, String workerId, Completion completion, Instant now)
      throws SQLException {
    return BatchWrites.succeedOne(session, workerId, completion, now);
  }

  /** The completions in a few statements ({@link BatchWrites#succeed}). */
  @Override
  public Map<Long, String> succeedAll(
      JdbcSession session, String workerId, List<Completion> completions, Instant now)
      throws SQLException {
    return BatchWrites.succeed(session, workerId, completions, now);
  }

  /** The counts kept by triggers, and the PENDING jobs not yet due ({@link QueueCountRows}). */
  @Override
  public List<QueueCounts> stats(
      JdbcSession session, @Nullable String queue, Instant now, boolean unfinishedOnly)
      throws SQLException {
    return QueueCountRows.stats(session, queue, now, unfinishedOnly);
  }
}
