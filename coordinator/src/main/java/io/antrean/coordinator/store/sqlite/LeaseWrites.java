package io.antrean.coordinator.store.sqlite;

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
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Granting leases and taking expired ones back. Runs on the writer thread; being the only writer,
 * it selects and updates in one statement without any race.
 *
 * <p>A paused queue leases nothing: its flag is read first, in the same writer operation. Leasing
 * walks the partial index {@code jobs_pending} (queue, priority DESC, run_at, id) in order and
 * stops after {@code maxJobs} ready rows, so its cost does not grow with the backlog. The sweep
 * walks {@code jobs_running_expiry} the same way.
 */
final class LeaseWrites {
  static final String SELECT_EXPIRED =
      "SELECT "
          + JobRowReader.JOB_COLUMNS
          + " FROM jobs INDEXED BY jobs_running_expiry"
          + " WHERE state = 'RUNNING' AND lease_expires_at <= ?"
          + " ORDER BY lease_expires_at, id LIMIT ?";

  private LeaseWrites() {}

  /**
   * The lease statement for a filter on {@code typeCount} job types (0: any type). Parameters:
   * worker id, expiry, now (updated_at), queue, now (run_at), the types, the limit.
   */
  static String leaseSql(int typeCount) {
    String typeFilter =
        typeCount == 0
            ? ""
            : " AND type IN (" + String.join(", ", Collections.nCopies(typeCount, "?")) + ")";
    return "UPDATE jobs SET state = 'RUNNING', attempts = attempts + 1,"
        + " lease_token = lease_token + 1, lease_worker_id = ?, lease_expires_at = ?,"
        + " updated_at = ?"
        + " WHERE id IN (SELECT id FROM jobs INDEXED BY jobs_pending"
        + " WHERE state = 'PENDING' AND queue = ? AND run_at <= ?"
        + typeFilter
        + " ORDER BY priority DESC, run_at, id LIMIT ?)"
        + " RETURNING "
        + JobRowReader.JOB_COLUMNS;
  }

  static List<Job> lease(CachedConnection connection, LeaseSpec spec, Instant now)
      throws SQLException {
    // The only writer checks first, so a pause committed before this operation always holds.
    if (QueueControlRows.isPaused(connection, spec.queue())) {
      return List.of();
    }
    List<String> types = List.copyOf(spec.types());
    PreparedStatement update = connection.prepare(leaseSql(types.size()));
    int index = 1;
    update.setString(index++, spec.workerId());
    update.setLong(index++, Micros.of(spec.expiresAt()));
    update.setLong(index++, Micros.of(now));
    update.setString(index++, spec.queue());
    update.setLong(index++, Micros.of(now));
    for (String type : types) {
      update.setString(index++, type);
    }
    update.setInt(index, spec.maxJobs());
    List<Job> leased = Leases.inGrantOrder(JobRows.jobs(update));
    for (Job job : leased) {
      AttemptRows.started(connection, job, now);
    }
    return leased;
  }

  /** The timer path: takes the job back only if it still runs under this token and has expired. */
  static Optional<Job> expireLease(
      CachedConnection connection, long jobId, long fencingToken, Instant now) throws SQLException {
    Optional<Job> job = JobRows.find(connection, jobId);
    return job.isEmpty() ? Optional.empty() : takeBack(connection, job.get(), fencingToken, now);
  }

  /** The sweep path: takes back up to {@code limit} expired leases, the longest expired first. */
  static List<Job> expireLeases(CachedConnection connection, Instant now, int limit)
      throws SQLException {
    PreparedStatement select = connection.prepare(SELECT_EXPIRED);
    select.setLong(1, Micros.of(now));
    select.setInt(2, limit);
    List<Job> expired = JobRows.jobs(select);
    List<Job> takenBack = new ArrayList<>(expired.size());
    for (Job job : expired) {
      takeBack(connection, job, job.lease().fencingToken(), now).ifPresent(takenBack::add);
    }
    return takenBack;
  }

  /** Ends the lease with this token if {@link JobLifecycle#expire} finds it lapsed. */
  private static Optional<Job> takeBack(
      CachedConnection connection, Job job, long fencingToken, Instant now) throws SQLException {
    Decision<LeaseEnd> end = JobLifecycle.expire(JobStatus.of(job), fencingToken, now);
    if (end.isRefused()) {
      return Optional.empty();
    }
    return Optional.of(
        JobTransitions.endLease(connection, job.id(), fencingToken, end.change(), now));
  }
}
