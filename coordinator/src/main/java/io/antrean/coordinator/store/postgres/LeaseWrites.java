package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Decision;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.LeaseEnd;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import io.antrean.coordinator.store.jdbc.Leases;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Granting leases and taking expired ones back, safely while other coordinators do the same on the
 * same database.
 *
 * <p>Both sides pick rows with {@code FOR UPDATE SKIP LOCKED}: a row another transaction holds is
 * passed over instead of waited for, and a row another transaction changed since the statement
 * began is checked again against the conditions (still PENDING; still RUNNING and expired), so no
 * two coordinators lease one job, and an expired lease is taken back exactly once. Leasing walks
 * the partial index {@code jobs_pending} (queue, priority DESC, run_at, id) in order and stops
 * after {@code maxJobs} rows, so its cost does not grow with the backlog; the sweep walks {@code
 * jobs_running_expiry} the same way.
 */
final class LeaseWrites {
  /**
   * The candidates of a lease, none while the queue is paused (the pause is read in the same
   * statement); parameters: queue, now, [types,] queue, limit. The pause check names the queue
   * again instead of joining on {@code jobs.queue}, so it is a one-time filter and the index walk
   * keeps its order.
   */
  static String pickSql(boolean byType) {
    return "SELECT id FROM jobs WHERE state = 'PENDING' AND queue = ? AND run_at <= ?"
        + (byType ? " AND type = ANY (?)" : "")
        + " AND NOT EXISTS (SELECT 1 FROM queues WHERE name = ? AND paused_at IS NOT NULL)"
        + " ORDER BY priority DESC, run_at, id LIMIT ? FOR UPDATE SKIP LOCKED";
  }

  /**
   * One statement picks, leases and opens each job's history entry. Parameters: those of {@link
   * #pickSql}, then worker id, expiry, now (updated_at), now (leased_at).
   */
  static String leaseSql(boolean byType) {
    return "WITH picked AS MATERIALIZED ("
        + pickSql(byType)
        + "), leased AS (UPDATE jobs SET state = 'RUNNING', attempts = attempts + 1,"
        + " lease_token = lease_token + 1, lease_worker_id = ?, lease_expires_at = ?,"
        + " updated_at = ? FROM picked WHERE jobs.id = picked.id RETURNING "
        + JobRows.columnsOf("jobs")
        + "), started AS (INSERT INTO attempts"
        + " (job_id, attempt, worker_id, fencing_token, leased_at, outcome)"
        + " SELECT id, attempts, lease_worker_id, lease_token, ?, 'RUNNING' FROM leased)"
        + " SELECT "
        + JobRowReader.JOB_COLUMNS
        + " FROM leased";
  }

  static final String SELECT_EXPIRED =
      "SELECT "
          + JobRowReader.JOB_COLUMNS
          + " FROM jobs WHERE state = 'RUNNING' AND lease_expires_at <= ?"
          + " ORDER BY lease_expires_at, id LIMIT ? FOR UPDATE SKIP LOCKED";
  private static final String SELECT_EXPIRED_LEASE =
      "SELECT "
          + JobRowReader.JOB_COLUMNS
          + " FROM jobs WHERE id = ? AND state = 'RUNNING' AND lease_token = ?"
          + " AND lease_expires_at <= ? FOR UPDATE SKIP LOCKED";

  private LeaseWrites() {}

  static List<Job> lease(Tx tx, LeaseSpec spec, Instant now) throws SQLException {
    boolean byType = !spec.types().isEmpty();
    PreparedStatement lease = tx.prepare(leaseSql(byType));
    int index = 1;
    lease.setString(index++, spec.queue());
    Timestamps.set(lease, index++, now);
    if (byType) {
      lease.setArray(index++, tx.textArray(List.copyOf(spec.types())));
    }
    lease.setString(index++, spec.queue());
    lease.setInt(index++, spec.maxJobs());
    lease.setString(index++, spec.workerId());
    Timestamps.set(lease, index++, spec.expiresAt());
    Timestamps.set(lease, index++, now);
    Timestamps.set(lease, index, now);
    return Leases.inGrantOrder(JobRows.jobs(lease));
  }

  /** The timer path: takes the job back only if it still runs under this token and has expired. */
  static Optional<Job> expireLease(Tx tx, long jobId, long fencingToken, Instant now)
      throws SQLException {
    PreparedStatement select = tx.prepare(SELECT_EXPIRED_LEASE);
    select.setLong(1, jobId);
    select.setLong(2, fencingToken);
    Timestamps.set(select, 3, now);
    List<Job> expired = JobRows.jobs(select);
    return expired.isEmpty() ? Optional.empty() : takeBack(tx, expired.get(0), fencingToken, now);
  }

  /** The sweep path: takes back up to {@code limit} expired leases, the longest expired first. */
  static List<Job> expireLeases(Tx tx, Instant now, int limit) throws SQLException {
    PreparedStatement select = tx.prepare(SELECT_EXPIRED);
    Timestamps.set(select, 1, now);
    select.setInt(2, limit);
    List<Job> expired = JobRows.jobs(select);
    List<Job> takenBack = new ArrayList<>(expired.size());
    for (Job job : expired) {
      takeBack(tx, job, job.lease().fencingToken(), now).ifPresent(takenBack::add);
    }
    return takenBack;
  }

  /** Ends the lease with this token if {@link JobLifecycle#expire} finds it lapsed. */
  private static Optional<Job> takeBack(Tx tx, Job job, long fencingToken, Instant now)
      throws SQLException {
    Decision<LeaseEnd> end = JobLifecycle.expire(JobStatus.of(job), fencingToken, now);
    if (end.isRefused()) {
      return Optional.empty();
    }
    return Optional.of(JobTransitions.endLease(tx, job.id(), fencingToken, end.change(), now));
  }
}
