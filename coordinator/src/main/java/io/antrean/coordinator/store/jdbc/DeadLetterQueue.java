package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobPage;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The dead-letter queue: listing and counting FAILED jobs, and what operators change there (redrive
 * and purge). Every change is conditioned on {@code state = 'FAILED'}, so an id that is not a dead
 * letter (any more) is skipped without a read first; PostgreSQL checks the condition again after
 * waiting for a concurrent writer, so two operators redriving one job at once redrive it once.
 * Listing walks the partial index {@code jobs_dead_letters} (FAILED ids) backwards, or one by
 * queue, so a page costs the same however many finished jobs the table holds; the growth count
 * walks {@code jobs_finished} from {@code since} on.
 */
public final class DeadLetterQueue {
  // The fencing token stays: the next lease increments it, so a redriven job never reissues one.
  // last_error stays too, until the next attempt replaces it: operators still see why it died.
  private static final String REDRIVE =
      "UPDATE jobs SET state = 'PENDING', run_at = ?, attempts = 0, lease_expiries = 0, releases = 0,"
          + " cancel_requested = false, result = NULL, result_content_type = NULL,"
          + " progress = NULL, finished_at = NULL, lease_worker_id = NULL,"
          + " lease_expires_at = NULL, updated_at = ?"
          + " WHERE id = ? AND state = 'FAILED'"
          // A job whose unique key another active job holds stays dead-lettered (skipped).
          + " AND NOT EXISTS (SELECT 1 FROM jobs holder WHERE holder.queue = jobs.queue"
          + " AND holder.unique_key = jobs.unique_key AND holder.state IN ('PENDING', 'RUNNING', 'WAITING'))"
          + " RETURNING "
          + JobRowReader.JOB_COLUMNS;
  // The job's attempts and idempotency key go with it (see RetentionWrites).
  private static final String PURGE = "DELETE FROM jobs WHERE id = ? AND state = 'FAILED'";

  private DeadLetterQueue() {}

  /** One page of dead letters, newest first. */
  public static JobPage list(JdbcSession session, DeadLetterQuery query) throws SQLException {
    List<Object> parameters = new ArrayList<>();
    String sql = listSql(session.dialect(), query, parameters);
    return JobReads.page(session, sql, parameters, query.limit());
  }

  /** The listing statement for the query; its parameters are added to {@code parameters}. */
  public static String listSql(
      JdbcDialect dialect, DeadLetterQuery query, List<Object> parameters) {
    return JobListings.deadLettersSql(
        query, parameters, dialect.lastErrorContains(), dialect::ceil);
  }

  /**
   * The growth count: FAILED jobs finished since a time, grouped, largest group first; ties in byte
   * order with NULLs first, the same on every database. Parameter: since.
   */
  public static String groupsSinceSql(JdbcDialect dialect) {
    return "SELECT queue, type, last_error, count(*) AS jobs FROM jobs"
        + dialect.indexHint("jobs_finished")
        + " WHERE state = 'FAILED' AND finished_at >= ? GROUP BY queue, type, last_error"
        + " ORDER BY jobs DESC, "
        + dialect.byteOrder("queue")
        + ", "
        + dialect.byteOrder("type")
        + ", "
        + dialect.byteOrder("last_error")
        + " NULLS FIRST";
  }

  /** The dead letters that arrived since {@code since}, grouped by queue, type and error. */
  public static List<DeadLetterGroup> groupsSince(JdbcSession session, Instant since)
      throws SQLException {
    JdbcDialect dialect = session.dialect();
    PreparedStatement select = session.prepare(groupsSinceSql(dialect));
    dialect.setInstant(select, 1, dialect.ceil(since));
    return JobListings.deadLetterGroups(select);
  }

  /**
   * Redrives the FAILED jobs among {@code jobIds} in order; the i-th one redriven runs at {@code
   * firstRunAt + i * spacing}.
   */
  public static List<Job> redrive(
      JdbcSession session, List<Long> jobIds, Instant firstRunAt, Duration spacing, Instant now)
      throws SQLException {
    JdbcDialect dialect = session.dialect();
    List<Job> redriven = new ArrayList<>();
    for (long jobId : jobIds) {
      Instant runAt = firstRunAt.plus(spacing.multipliedBy(redriven.size()));
      PreparedStatement update = session.prepare(REDRIVE);
      dialect.setInstant(update, 1, runAt);
      dialect.setInstant(update, 2, now);
      update.setLong(3, jobId);
      long fencingToken;
      Job job;
      try (ResultSet row = update.executeQuery()) {
        if (!row.next()) {
          continue;
        }
        job = dialect.reader().job(session, row);
        fencingToken = JobRowReader.fencingToken(row);
      }
      AttemptRows.redriven(session, jobId, fencingToken, now);
      // A job with dependencies checks them again: it may wait, or meet its policy again.
      redriven.add(Dependencies.redriven(session, job, now));
      session.jobsReady(job.queue());
    }
    return redriven;
  }

  /** Deletes the FAILED jobs among {@code jobIds}; returns how many. */
  public static int purge(JdbcSession session, List<Long> jobIds) throws SQLException {
    PreparedStatement delete = session.prepare(PURGE);
    for (long jobId : jobIds) {
      delete.setLong(1, jobId);
      delete.addBatch();
    }
    int purged = 0;
    for (int count : delete.executeBatch()) {
      purged += Math.max(count, 0);
    }
    return purged;
  }
}
