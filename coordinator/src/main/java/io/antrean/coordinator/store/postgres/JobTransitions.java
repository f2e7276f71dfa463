package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobMove;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseEnd;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.jdbc.ErrorText;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The row updates that move a job out of PENDING or RUNNING. Each returns the job as it is after
 * the update. {@link #apply} checks nothing: its callers hold the job's row lock ({@code SELECT ...
 * FOR UPDATE [SKIP LOCKED]}) and decided under it that the move is allowed.
 */
final class JobTransitions {
  private static final String LEAVE =
      "UPDATE jobs SET state = ?, run_at = coalesce(?, run_at),"
          + " last_error = coalesce(?, last_error),"
          + " last_error_folded = coalesce(?, last_error_folded),"
          + " lease_expiries = lease_expiries + ?, releases = releases + ?,"
          + " finished_at = ?, updated_at = ?,"
          + " lease_worker_id = NULL, lease_expires_at = NULL"
          + " WHERE id = ? RETURNING "
          + JobRowReader.JOB_COLUMNS;
  // One statement completes the job and ends its attempt, conditioned on the token.
  private static final String SUCCEED =
      "WITH done AS (UPDATE jobs SET state = 'SUCCEEDED', result = ?, result_content_type = ?,"
          + " finished_at = ?, updated_at = ?, lease_worker_id = NULL, lease_expires_at = NULL"
          + " WHERE id = ? AND state = 'RUNNING' AND lease_token = ? AND lease_worker_id = ?"
          + " RETURNING "
          + JobRowReader.JOB_COLUMNS
          + "), ended AS (UPDATE attempts SET ended_at = ?, outcome = 'SUCCEEDED'"
          + " FROM done WHERE attempts.job_id = done.id AND attempts.fencing_token = ?"
          + " AND attempts.outcome = 'RUNNING')"
          + " SELECT "
          + JobRowReader.JOB_COLUMNS
          + " FROM done";
  // The same for a batch, in one statement: the jobs still held with their tokens are locked in id
  // order (so two batches naming the same jobs cannot deadlock), completed, and their attempts
  // ended. Item columns carry their own names so the jobs' columns stay unambiguous.
  private static final String SUCCEED_ALL =
      "WITH items AS (SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::bytea[], ?::text[])"
          + " AS item (item_id, item_token, item_result, item_content_type)),"
          + " held AS MATERIALIZED (SELECT jobs.id AS held_id FROM jobs"
          + " JOIN items ON jobs.id = items.item_id"
          + " WHERE jobs.state = 'RUNNING' AND jobs.lease_token = items.item_token"
          + " AND jobs.lease_worker_id = ?"
          + " ORDER BY jobs.id FOR UPDATE OF jobs),"
          + " done AS (UPDATE jobs SET state = 'SUCCEEDED', result = items.item_result,"
          + " result_content_type = items.item_content_type, finished_at = ?, updated_at = ?,"
          + " lease_worker_id = NULL, lease_expires_at = NULL"
          + " FROM held JOIN items ON items.item_id = held.held_id"
          + " WHERE jobs.id = held.held_id RETURNING "
          + JobRows.columnsOf("jobs")
          + "), ended AS (UPDATE attempts SET ended_at = ?, outcome = 'SUCCEEDED'"
          + " FROM done WHERE attempts.job_id = done.id"
          + " AND attempts.fencing_token = done.lease_token AND attempts.outcome = 'RUNNING')"
          + " SELECT "
          + JobRowReader.JOB_COLUMNS
          + " FROM done";
  private static final String REQUEST_CANCEL =
      "UPDATE jobs SET cancel_requested = true, updated_at = ? WHERE id = ? RETURNING "
          + JobRowReader.JOB_COLUMNS;

  private JobTransitions() {}

  /**
   * Applies the move and clears the lease. A terminal state sets {@code finished_at}; the fencing
   * token stays, so the next lease's token is higher still. A move to PENDING announces the queue.
   */
  static Job apply(Tx tx, long jobId, JobMove move, Instant now) throws SQLException {
    PreparedStatement update = tx.prepare(LEAVE);
    update.setString(1, move.to().name());
    Timestamps.setNullable(update, 2, move.runAt());
    update.setString(3, move.lastError());
    update.setString(4, move.lastError() == null ? null : ErrorText.fold(move.lastError()));
    update.setInt(5, move.leaseExpiriesDelta());
    update.setInt(6, move.releasesDelta());
    Timestamps.setNullable(update, 7, move.to().isTerminal() ? now : null);
    Timestamps.set(update, 8, now);
    update.setLong(9, jobId);
    List<Job> changed = JobRows.jobs(update);
    if (changed.size() != 1) {
      throw new IllegalStateException("job " + jobId + " vanished while its row was locked");
    }
    Job after = changed.get(0);
    if (after.state() == JobState.PENDING) {
      tx.jobsReady(after.queue());
    }
    return after;
  }

  /** Ends the lease with this token: applies the end's move and ends the lease's attempt. */
  static Job endLease(Tx tx, long jobId, long fencingToken, LeaseEnd end, Instant now)
      throws SQLException {
    Job after = apply(tx, jobId, end.move(), now);
    AttemptRows.ended(tx, jobId, fencingToken, end.attempt(), now);
    return after;
  }

  /**
   * Completes the job and ends its attempt if it still runs under this token.
   *
   * @return the job after the change, or empty if the job is missing or not held with the token
   */
  static Optional<Job> succeed(
      Tx tx,
      long jobId,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      throws SQLException {
    PreparedStatement update = tx.prepare(SUCCEED);
    update.setBytes(1, result);
    update.setString(2, resultContentType);
    Timestamps.set(update, 3, now);
    Timestamps.set(update, 4, now);
    update.setLong(5, jobId);
    update.setLong(6, fencingToken);
    update.setString(7, workerId);
    Timestamps.set(update, 8, now);
    update.setLong(9, fencingToken);
    List<Job> changed = JobRows.jobs(update);
    return changed.isEmpty() ? Optional.empty() : Optional.of(changed.get(0));
  }

  /**
   * {@link #succeed} for every completion in one statement (one round trip however many there are).
   *
   * @return the jobs completed, by id; a completion whose job is missing or not held with its token
   *     is not among them
   */
  static Map<Long, Job> succeedAll(
      Tx tx, String workerId, List<Completion> completions, Instant now) throws SQLException {
    int size = completions.size();
    List<Long> ids = new ArrayList<>(size);
    List<Long> tokens = new ArrayList<>(size);
    List<byte[]> results = new ArrayList<>(size);
    List<String> contentTypes = new ArrayList<>(size);
    for (Completion c : completions) {
      ids.add(c.jobId());
      tokens.add(c.fencingToken());
      results.add(c.result());
      contentTypes.add(c.resultContentType());
    }
    PreparedStatement update = tx.prepare(SUCCEED_ALL);
    update.setArray(1, tx.bigintArray(ids));
    update.setArray(2, tx.bigintArray(tokens));
    update.setArray(3, tx.byteaArray(results));
    update.setArray(4, tx.textArray(contentTypes));
    update.setString(5, workerId);
    Timestamps.set(update, 6, now);
    Timestamps.set(update, 7, now);
    Timestamps.set(update, 8, now);
    Map<Long, Job> done = new HashMap<>();
    for (Job job : JobRows.jobs(update)) {
      done.put(job.id(), job);
    }
    return done;
  }

  static Job requestCancel(Tx tx, long jobId, Instant now) throws SQLException {
    PreparedStatement update = tx.prepare(REQUEST_CANCEL);
    Timestamps.set(update, 1, now);
    update.setLong(2, jobId);
    return JobRows.jobs(update).get(0);
  }
}
