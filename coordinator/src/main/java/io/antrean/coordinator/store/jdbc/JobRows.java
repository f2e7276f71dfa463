package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.Job;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** Reading rows of {@code jobs} and {@code attempts} as domain records, in any dialect. */
public final class JobRows {
  private JobRows() {}

  /** The job without its history, or empty. */
  public static Optional<Job> find(JdbcSession session, long jobId) throws SQLException {
    return first(session, JobRowReader.SELECT_JOB, jobId);
  }

  /**
   * The job, locked against every other change until the work ends where the database has row locks
   * (it waits for a transaction holding the lock and reads the job as that one left it), or empty.
   * On SQLite the single writer already excludes every other change.
   */
  public static Optional<Job> findForUpdate(JdbcSession session, long jobId) throws SQLException {
    return first(session, JobRowReader.SELECT_JOB + session.dialect().lockRows(), jobId);
  }

  private static Optional<Job> first(JdbcSession session, String sql, long jobId)
      throws SQLException {
    PreparedStatement select = session.prepare(sql);
    select.setLong(1, jobId);
    List<Job> jobs = jobs(session, select);
    return jobs.isEmpty() ? Optional.empty() : Optional.of(jobs.get(0));
  }

  /** The job's attempt history, oldest first. */
  public static List<Attempt> history(JdbcSession session, long jobId) throws SQLException {
    PreparedStatement select = session.prepare(JobRowReader.SELECT_HISTORY);
    select.setLong(1, jobId);
    return session.dialect().reader().history(select);
  }

  /** Runs the statement and reads every job of its result, in order. */
  public static List<Job> jobs(JdbcSession session, PreparedStatement statement)
      throws SQLException {
    return session.dialect().reader().jobs(session, statement);
  }

  /**
   * Runs an update of one job by id that returns it (a RETURNING clause): the caller decided the
   * row is there and no one else changes it.
   */
  public static Job single(JdbcSession session, PreparedStatement statement, long jobId)
      throws SQLException {
    List<Job> changed = jobs(session, statement);
    if (changed.size() != 1) {
      throw new IllegalStateException("job " + jobId + " vanished while it was being changed");
    }
    return changed.get(0);
  }
}
