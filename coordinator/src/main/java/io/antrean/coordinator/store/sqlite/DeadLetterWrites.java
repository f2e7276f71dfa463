package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What operators change in the dead-letter queue: redrive and purge. Runs on the writer thread;
 * each statement is conditioned on {@code state = 'FAILED'}, so an id that is not a dead letter
 * (any more) is skipped without a read first.
 */
final class DeadLetterWrites {
  // lease_token stays: the next lease increments it, so a redriven job never reissues a token.
  // last_error stays too, until the next attempt replaces it: operators still see why it died.
  private static final String REDRIVE =
      "UPDATE jobs SET state = 'PENDING', run_at = ?, attempts = 0, lease_expiries = 0, releases = 0,"
          + " cancel_requested = 0, result = NULL, result_content_type = NULL, progress = NULL,"
          + " finished_at = NULL, lease_worker_id = NULL, lease_expires_at = NULL,"
          + " updated_at = ?"
          + " WHERE id = ? AND state = 'FAILED'"
          // A job whose unique key another active job holds stays dead-lettered (skipped).
          + " AND NOT EXISTS (SELECT 1 FROM jobs holder WHERE holder.queue = jobs.queue"
          + " AND holder.unique_key = jobs.unique_key AND holder.state IN ('PENDING', 'RUNNING'))"
          + " RETURNING "
          + JobRowReader.JOB_COLUMNS;
  // The foreign keys cascade to the job's attempts and idempotency keys.
  private static final String PURGE = "DELETE FROM jobs WHERE id = ? AND state = 'FAILED'";

  private DeadLetterWrites() {}

  /**
   * Redrives the FAILED jobs among {@code jobIds} in order; the i-th one redriven runs at {@code
   * firstRunAt + i * spacing}.
   */
  static List<Job> redrive(
      CachedConnection connection,
      List<Long> jobIds,
      Instant firstRunAt,
      Duration spacing,
      Instant now)
      throws SQLException {
    List<Job> redriven = new ArrayList<>();
    for (long jobId : jobIds) {
      Instant runAt = firstRunAt.plus(spacing.multipliedBy(redriven.size()));
      PreparedStatement update = connection.prepare(REDRIVE);
      update.setLong(1, Micros.of(runAt));
      update.setLong(2, Micros.of(now));
      update.setLong(3, jobId);
      long fencingToken;
      try (ResultSet row = update.executeQuery()) {
        if (!row.next()) {
          continue;
        }
        redriven.add(JobRows.READER.job(row));
        fencingToken = JobRowReader.fencingToken(row);
      }
      AttemptRows.redriven(connection, jobId, fencingToken, now);
    }
    return redriven;
  }

  /** Deletes the FAILED jobs among {@code jobIds}; returns how many. */
  static int purge(CachedConnection connection, List<Long> jobIds) throws SQLException {
    int purged = 0;
    for (long jobId : jobIds) {
      PreparedStatement delete = connection.prepare(PURGE);
      delete.setLong(1, jobId);
      purged += delete.executeUpdate();
    }
    return purged;
  }
}
