package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.AnswerBudget;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reading rows of {@code jobs} and {@code attempts} as domain records, in any dialect. */
public final class JobRows {
  /**
   * The select list, or RETURNING list, of a change that tells no more of each job than which it is
   * and where: read by {@link #queuesById}.
   */
  public static final String ID_AND_QUEUE = "id, queue";

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

  /**
   * A job's attempt history as one answer carries it: oldest first, its newest entries while they
   * and the job stay within the {@link AnswerBudget}, and how many older ones that leaves out.
   */
  public record History(List<Attempt> attempts, int omitted) {}

  /**
   * The job's attempt history ({@link History}): its entries' sizes first, then those it keeps.
   *
   * @param jobBytes what the job itself takes in the answer ({@link AnswerBudget#listedBytes})
   */
  public static History history(JdbcSession session, long jobId, long jobBytes)
      throws SQLException {
    JdbcDialect dialect = session.dialect();
    PreparedStatement sizes = session.prepare(historySizesSql(dialect));
    sizes.setLong(1, jobId);
    long fromId = -1;
    long bytes = jobBytes;
    int omitted = 0;
    try (ResultSet rows = sizes.executeQuery()) {
      while (rows.next()) {
        long next = rows.getLong(2) + AnswerBudget.ATTEMPT_FIELDS_BYTES;
        if (omitted == 0 && AnswerBudget.fits(bytes, next, fromId < 0)) {
          fromId = rows.getLong(1);
          bytes += next;
        } else {
          omitted++;
        }
      }
    }
    if (fromId < 0) {
      return new History(List.of(), 0);
    }
    PreparedStatement select = session.prepare(JobRowReader.SELECT_HISTORY);
    select.setLong(1, jobId);
    select.setLong(2, fromId);
    return new History(dialect.reader().history(select), omitted);
  }

  /** The ids of a job's history entries, newest first, each with its error texts' bytes. */
  static String historySizesSql(JdbcDialect dialect) {
    return "SELECT id, "
        + dialect.textBytesSql("error_type")
        + " + "
        + dialect.textBytesSql("error_message")
        + " + "
        + dialect.textBytesSql("stack_trace")
        + " FROM attempts WHERE job_id = ? ORDER BY id DESC";
  }

  /** Runs the statement and reads every job of its result, in order. */
  public static List<Job> jobs(JdbcSession session, PreparedStatement statement)
      throws SQLException {
    return session.dialect().reader().jobs(session, statement);
  }

  /**
   * Runs the statement, whose rows are {@link #ID_AND_QUEUE}, and puts each job's queue by its id
   * into {@code into}.
   */
  public static void queuesById(PreparedStatement statement, Map<Long, String> into)
      throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        into.put(rows.getLong(1), rows.getString(2));
      }
    }
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
