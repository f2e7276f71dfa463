package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.jdbc.JobListings;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The dead-letter queue: listing and counting FAILED jobs, and what operators change there (redrive
 * and purge). Every change is conditioned on {@code state = 'FAILED'}, which PostgreSQL checks
 * again after waiting for a concurrent writer, so two operators redriving one job at once redrive
 * it once. Listing walks the partial indexes {@code jobs_dead_letters} and {@code
 * jobs_dead_letters_by_queue}; the growth count walks {@code jobs_finished}.
 */
final class DeadLetterQueue {
  // Byte order ("C") and NULLs first: the same order on every server, whatever its collation.
  static final String GROUPS_SINCE =
      "SELECT queue, type, last_error, count(*) AS jobs FROM jobs"
          + " WHERE state = 'FAILED' AND finished_at >= ? GROUP BY queue, type, last_error"
          + " ORDER BY jobs DESC, queue COLLATE \"C\", type COLLATE \"C\","
          + " last_error COLLATE \"C\" NULLS FIRST";
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
          + " AND holder.unique_key = jobs.unique_key AND holder.state IN ('PENDING', 'RUNNING'))"
          + " RETURNING "
          + JobRowReader.JOB_COLUMNS;
  // The foreign keys cascade to the jobs' attempts and idempotency keys.
  private static final String PURGE = "DELETE FROM jobs WHERE id = ANY (?) AND state = 'FAILED'";

  private DeadLetterQueue() {}

  static JobPage list(Tx tx, DeadLetterQuery query) throws SQLException {
    List<Object> parameters = new ArrayList<>();
    return JobReads.page(tx, listSql(query, parameters), parameters, query.limit());
  }

  /** The listing statement for the query; its parameters are added to {@code parameters}. */
  static String listSql(DeadLetterQuery query, List<Object> parameters) {
    return JobListings.deadLettersSql(
        query, parameters, "strpos(last_error_folded, ?) > 0", Timestamps::ceil);
  }

  static List<DeadLetterGroup> groupsSince(Tx tx, Instant since) throws SQLException {
    PreparedStatement select = tx.prepare(GROUPS_SINCE);
    Timestamps.setCeil(select, 1, since);
    return JobListings.deadLetterGroups(select);
  }

  /**
   * Redrives the FAILED jobs among {@code jobIds} in order; the i-th one redriven runs at {@code
   * firstRunAt + i * spacing}.
   */
  static List<Job> redrive(
      Tx tx, List<Long> jobIds, Instant firstRunAt, Duration spacing, Instant now)
      throws SQLException {
    List<Job> redriven = new ArrayList<>();
    for (long jobId : jobIds) {
      Instant runAt = firstRunAt.plus(spacing.multipliedBy(redriven.size()));
      PreparedStatement update = tx.prepare(REDRIVE);
      Timestamps.set(update, 1, runAt);
      Timestamps.set(update, 2, now);
      update.setLong(3, jobId);
      long fencingToken;
      Job job;
      try (ResultSet row = update.executeQuery()) {
        if (!row.next()) {
          continue;
        }
        job = JobRows.READER.job(row);
        fencingToken = JobRowReader.fencingToken(row);
      }
      redriven.add(job);
      AttemptRows.redriven(tx, jobId, fencingToken, now);
      tx.jobsReady(job.queue());
    }
    return redriven;
  }

  /** Deletes the FAILED jobs among {@code jobIds}; returns how many. */
  static int purge(Tx tx, List<Long> jobIds) throws SQLException {
    PreparedStatement delete = tx.prepare(PURGE);
    delete.setArray(1, tx.bigintArray(jobIds));
    return delete.executeUpdate();
  }
}
