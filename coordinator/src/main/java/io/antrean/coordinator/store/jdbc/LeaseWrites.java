package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Decision;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.LeaseEnd;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Taking expired leases back (granting them is {@link JdbcDialect#lease}, each database its own
 * way). Expired leases are picked with the dialect's {@link JdbcDialect#lockRowsSkipLocked}: where
 * other coordinators sweep the same database, a row another transaction holds is passed over and a
 * row changed since the statement began is checked again, so an expired lease is taken back exactly
 * once. The sweep walks the partial index {@code jobs_running_expiry} in order, so its cost does
 * not grow with the number of running jobs.
 */
public final class LeaseWrites {
  private LeaseWrites() {}

  /** The sweep's SELECT: parameters now, limit. */
  public static String selectExpiredSql(JdbcDialect dialect) {
    return "SELECT "
        + JobRowReader.JOB_COLUMNS
        + " FROM jobs"
        + dialect.indexHint("jobs_running_expiry")
        + " WHERE state = 'RUNNING' AND lease_expires_at <= ?"
        + " ORDER BY lease_expires_at, id LIMIT ?"
        + dialect.lockRowsSkipLocked();
  }

  private static String selectExpiredLeaseSql(JdbcDialect dialect) {
    return JobRowReader.SELECT_JOB
        + " AND state = 'RUNNING' AND lease_token = ? AND lease_expires_at <= ?"
        + dialect.lockRowsSkipLocked();
  }

  /** The timer path: takes the job back only if it still runs under this token and has expired. */
  public static Optional<Job> expireLease(
      JdbcSession session, long jobId, long fencingToken, Instant now) throws SQLException {
    PreparedStatement select = session.prepare(selectExpiredLeaseSql(session.dialect()));
    select.setLong(1, jobId);
    select.setLong(2, fencingToken);
    session.dialect().setInstant(select, 3, now);
    List<Job> expired = JobRows.jobs(session, select);
    return expired.isEmpty()
        ? Optional.empty()
        : takeBack(session, expired.get(0), fencingToken, now);
  }

  /** The sweep path: takes back up to {@code limit} expired leases, the longest expired first. */
  public static List<Job> expireLeases(JdbcSession session, Instant now, int limit)
      throws SQLException {
    PreparedStatement select = session.prepare(selectExpiredSql(session.dialect()));
    session.dialect().setInstant(select, 1, now);
    select.setInt(2, limit);
    List<Job> expired = JobRows.jobs(session, select);
    List<Job> takenBack = new ArrayList<>(expired.size());
    for (Job job : expired) {
      takeBack(session, job, job.lease().fencingToken(), now).ifPresent(takenBack::add);
    }
    return takenBack;
  }

  /** Ends the lease with this token if {@link JobLifecycle#expire} finds it lapsed. */
  private static Optional<Job> takeBack(
      JdbcSession session, Job job, long fencingToken, Instant now) throws SQLException {
    Decision<LeaseEnd> end = JobLifecycle.expire(JobStatus.of(job), fencingToken, now);
    if (end.isRefused()) {
      return Optional.empty();
    }
    return Optional.of(JobTransitions.endLease(session, job.id(), fencingToken, end.change(), now));
  }
}
