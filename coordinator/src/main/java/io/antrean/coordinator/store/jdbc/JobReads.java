package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.AnswerBudget;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.LeaseRef;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The read side: get, list and running leases (stats are the dialect's, {@link JdbcDialect#stats}).
 * Callers run each read in one snapshot, so a job and its history agree.
 */
public final class JobReads {
  private JobReads() {}

  /** The job with its history, or empty. */
  public static Optional<Job> get(JdbcSession session, long jobId) throws SQLException {
    Optional<Job> job = JobRows.find(session, jobId);
    if (job.isEmpty()) {
      return job;
    }
    JobRows.History history = JobRows.history(session, jobId, AnswerBudget.listedBytes(job.get()));
    return Optional.of(job.get().withHistory(history.attempts(), history.omitted()));
  }

  /** One page of jobs, newest first unless the query asks for the oldest. */
  public static JobPage list(JdbcSession session, JobQuery query) throws SQLException {
    JdbcDialect dialect = session.dialect();
    List<Object> parameters = new ArrayList<>();
    String sql = JobListings.jobsSql(query, parameters, dialect.lastErrorContains(), dialect::ceil);
    return page(session, sql, parameters, query.limit());
  }

  /**
   * Runs a page SELECT of {@link JobListings} as a page: first the ids and the sizes of the rows it
   * would read (one more than {@code limit}, which tells whether another page follows), cut where
   * the page is full or the next job would take it past the {@link AnswerBudget}; then the jobs
   * from the first of those ids to the last, in the same snapshot (the caller's). A page of long
   * payloads, results or errors ends early, with the next page's token, and never holds more than
   * the budget, or one job, in memory.
   */
  static JobPage page(JdbcSession session, String sql, List<Object> parameters, int limit)
      throws SQLException {
    PreparedStatement sizes =
        bind(session, JobListings.idsAndSizes(sql, session.dialect().listedBytesSql()), parameters);
    List<Long> ids = new ArrayList<>();
    boolean more = false;
    long bytes = 0;
    try (ResultSet rows = sizes.executeQuery()) {
      while (rows.next()) {
        long next = rows.getLong(2) + AnswerBudget.JOB_FIELDS_BYTES;
        if (ids.size() == limit || !AnswerBudget.fits(bytes, next, ids.isEmpty())) {
          more = true;
          break;
        }
        ids.add(rows.getLong(1));
        bytes += next;
      }
    }
    if (ids.isEmpty()) {
      return new JobPage(List.of(), null);
    }
    long first = ids.get(0);
    long last = ids.get(ids.size() - 1);
    List<Object> within = new ArrayList<>(parameters.subList(0, parameters.size() - 1));
    within.add(Math.min(first, last));
    within.add(Math.max(first, last));
    within.add(ids.size());
    List<Job> jobs = JobRows.jobs(session, bind(session, JobListings.withinIds(sql), within));
    return new JobPage(jobs, more ? last : null);
  }

  private static PreparedStatement bind(JdbcSession session, String sql, List<Object> parameters)
      throws SQLException {
    PreparedStatement select = session.prepare(sql);
    for (int i = 0; i < parameters.size(); i++) {
      Object value = parameters.get(i);
      if (value instanceof Instant instant) {
        session.dialect().setInstant(select, i + 1, instant);
      } else {
        select.setObject(i + 1, value);
      }
    }
    return select;
  }

  /** The SELECT of {@link #runningLeases}. */
  public static String runningLeasesSql(JdbcDialect dialect) {
    return "SELECT id, lease_token, lease_expires_at FROM jobs"
        + dialect.indexHint("jobs_running_expiry")
        + " WHERE state = 'RUNNING' AND lease_expires_at IS NOT NULL"
        + " ORDER BY lease_expires_at, id";
  }

  /** Every lease held now, the soonest to expire first. */
  public static List<LeaseRef> runningLeases(JdbcSession session) throws SQLException {
    JdbcDialect dialect = session.dialect();
    List<LeaseRef> leases = new ArrayList<>();
    try (ResultSet rows = session.prepare(runningLeasesSql(dialect)).executeQuery()) {
      while (rows.next()) {
        leases.add(new LeaseRef(rows.getLong(1), rows.getLong(2), dialect.instant(rows, 3)));
      }
    }
    return leases;
  }
}
