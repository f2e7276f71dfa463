package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * What differs between the databases the shared JDBC code runs on, and nothing else: how instants
 * are stored ({@link ColumnEncoding}), a few SQL fragments (row locks, index hints, the error
 * search, byte-order sorting), how a failure is classified, where the migrations live, and the hot
 * paths each database does its own way (leasing, enqueueing, completing). Everything else, every
 * decision included, is written once in this package and reaches the database through a {@link
 * JdbcSession}.
 *
 * <p>The defaults are standard SQL for a database that several coordinators write at once; a
 * dialect overrides what its database does otherwise. Implementations are singletons and
 * thread-safe.
 */
public abstract class JdbcDialect implements ColumnEncoding {
  private final JobRowReader reader = new JobRowReader(this);

  /** Reads job and attempt rows in this dialect's encoding; one shared instance. */
  public final JobRowReader reader() {
    return reader;
  }

  /** The bytes as the driver reads them; a driver that blurs empty and NULL says so here. */
  @Nullable
  @Override
  public byte[] bytes(ResultSet row, int column) throws SQLException {
    return row.getBytes(column);
  }

  /** Binds an instant, cut as the column keeps it. */
  public abstract void setInstant(PreparedStatement statement, int index, Instant instant)
      throws SQLException;

  /** Binds an instant or SQL NULL. */
  public void setNullableInstant(PreparedStatement statement, int index, @Nullable Instant instant)
      throws SQLException {
    if (instant == null) {
      statement.setNull(index, instantSqlType());
    } else {
      setInstant(statement, index, instant);
    }
  }

  /** The {@link Types} code of an instant column, for binding NULL. */
  public abstract int instantSqlType();

  /**
   * The first stored instant at or after {@code instant}: the bound to compare a stored column with
   * when the caller's instant may carry finer digits ({@code t >= x} exactly when {@code t >=
   * ceil(x)}, and {@code t < x} when {@code t < ceil(x)}).
   */
  public Instant ceil(Instant instant) {
    Instant stored = asStored(instant);
    return stored.equals(instant) ? stored : stored.plus(1, ChronoUnit.MICROS);
  }

  /**
   * Appended to a SELECT of jobs that the caller changes next: locks them against other writers.
   * Nothing where one writer runs at a time.
   */
  public String lockRows() {
    return " FOR UPDATE";
  }

  /**
   * Appended to a SELECT of a job that the caller writes a row about but does not change: keeps the
   * job from being deleted until the caller commits, as a foreign key's check would. It waits for a
   * transaction that deletes the job or holds it {@code FOR UPDATE}, not for one that only changes
   * its other columns. Nothing where one writer runs at a time.
   */
  public String lockKey() {
    return " FOR KEY SHARE";
  }

  /**
   * Appended to a SELECT that picks rows to change: locks them and passes over rows another
   * transaction holds. Nothing where one writer runs at a time.
   */
  public String lockRowsSkipLocked() {
    return " FOR UPDATE SKIP LOCKED";
  }

  /**
   * Placed after a table name: makes the query walk {@code index}. Nothing (the default) where the
   * planner picks the partial indexes on its own.
   */
  public String indexHint(String index) {
    return "";
  }

  /** A column sorted by its bytes, whatever the database's collation. */
  public abstract String byteOrder(String column);

  /**
   * The case-insensitive substring test on {@code last_error}, a condition with one parameter: the
   * search term folded by {@link ErrorText#fold}. By default it searches {@code last_error_folded},
   * which {@link #storesFoldedError} keeps.
   */
  public String lastErrorContains() {
    return "position(? IN last_error_folded) > 0";
  }

  /**
   * True (the default) when {@code jobs.last_error_folded} holds the folded error, written with
   * every {@code last_error}: Java's folding is the same whatever the server's locale. False when
   * the search folds {@code last_error} as it reads.
   */
  public boolean storesFoldedError() {
    return true;
  }

  /**
   * Turns a {@link SQLException} into what the SPI promises: {@link
   * io.antrean.coordinator.store.StoreUnavailableException} for trouble the caller may retry, and
   * {@link IllegalStateException} for what only a bug in the store can cause.
   */
  public abstract RuntimeException translate(String what, SQLException e);

  /** Where the Flyway migrations of this database's schema live on the class path. */
  public abstract String migrationsLocation();

  /**
   * Binds a new job's payload as its row's {@code payload}: the bytes (the default), or SQL NULL
   * for a payload {@link #storePayloadApart} keeps in a table of its own.
   */
  public void bindPayload(PreparedStatement insert, int index, byte[] payload) throws SQLException {
    insert.setBytes(index, payload);
  }

  /**
   * Called after each new job's insert: stores the payload {@link #bindPayload} left out of the
   * row. Nothing by default.
   */
  public void storePayloadApart(JdbcSession session, long jobId, byte[] payload)
      throws SQLException {}

  /**
   * Called after {@code jobs} jobs of {@code queue} moved from {@code from} to {@code to}, for the
   * moves a store counts in the code that makes them rather than per row: a lease (PENDING to
   * RUNNING) and a completion (RUNNING to SUCCEEDED). Nothing by default.
   */
  public void countMoved(JdbcSession session, String queue, JobState from, JobState to, int jobs)
      throws SQLException {}

  /**
   * The payload of a job whose row holds none (NULL), from where {@link #storePayloadApart} put it.
   *
   * @throws IllegalStateException where every payload is in its row (the default), or it is missing
   */
  public byte[] payloadApart(JdbcSession session, long jobId) throws SQLException {
    throw new IllegalStateException("job " + jobId + " has no payload in its row");
  }

  /**
   * An expression for the length in bytes of the payload of the {@code jobs} row in scope, wherever
   * it is kept ({@link #storePayloadApart}), for the lease's {@link
   * io.antrean.coordinator.store.AnswerBudget}.
   */
  public String payloadLengthSql() {
    return "octet_length(payload)";
  }

  /** An expression for the length in bytes of a binary {@code column}, 0 for NULL. */
  public String blobBytesSql(String column) {
    return "coalesce(octet_length(" + column + "), 0)";
  }

  /** An expression for the length in bytes of a text {@code column}, 0 for NULL. */
  public String textBytesSql(String column) {
    return "coalesce(octet_length(" + column + "), 0)";
  }

  /**
   * An expression for the bytes a listing answers for the {@code jobs} row in scope, its other
   * fields aside ({@link io.antrean.coordinator.store.AnswerBudget#JOB_FIELDS_BYTES}): its
   * payload's, its result's and its last error's lengths, for the budget of a page.
   */
  public String listedBytesSql() {
    return payloadLengthSql() + " + " + blobBytesSql("result") + " + " + textBytesSql("last_error");
  }

  /**
   * Leases up to {@code spec.maxJobs()} ready jobs of an unpaused queue, as many as {@link
   * io.antrean.coordinator.store.AnswerBudget} lets one answer carry, opens each one's history
   * entry, and returns them in grant order ({@link Leases#inGrantOrder}).
   */
  public abstract List<Job> lease(JdbcSession session, LeaseSpec spec, Instant now)
      throws SQLException;

  /**
   * Stores the jobs in order, honouring idempotency keys: a key remembered after {@code now} with
   * the same fingerprint yields the existing job; with another it throws {@link
   * io.antrean.coordinator.store.IdempotencyConflictException}, which rolls the whole call back.
   */
  public abstract List<EnqueueResult> enqueue(JdbcSession session, List<NewJob> jobs, Instant now)
      throws SQLException;

  /**
   * Completes the job and ends its attempt if it still runs under the completion's token, held by
   * this worker: the unary Complete, which answers the job.
   *
   * @return the job after the change; empty if it is missing or not held with the token
   */
  public abstract Optional<Job> succeed(
      JdbcSession session, String workerId, Completion completion, Instant now) throws SQLException;

  /**
   * Completes each job and ends its attempt if it still runs under the completion's token, held by
   * this worker: a CompleteBatch, which answers each job's status alone.
   *
   * @return the queue of each job completed, by id; a completion whose job is missing or not held
   *     with its token is not among them
   */
  public abstract Map<Long, String> succeedAll(
      JdbcSession session, String workerId, List<Completion> completions, Instant now)
      throws SQLException;

  /**
   * Counts per queue and state, and the ready PENDING jobs; see {@link QueueStats}.
   *
   * @param unfinishedOnly whether to count only the PENDING, RUNNING and WAITING jobs, as {@link
   *     io.antrean.coordinator.store.JobStore#unfinishedStats} does
   */
  public abstract List<QueueCounts> stats(
      JdbcSession session, @Nullable String queue, Instant now, boolean unfinishedOnly)
      throws SQLException;
}
