package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.jdbc.ColumnEncoding;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * Rows of {@code jobs} and {@code attempts} to domain records; instants are {@code timestamptz}.
 */
final class JobRows {
  static final JobRowReader READER = new JobRowReader(new TimestampEncoding());

  private JobRows() {}

  /**
   * The columns {@link #jobs} reads, qualified with {@code table}: the RETURNING list of an update
   * joined with other relations that share column names.
   */
  static String columnsOf(String table) {
    return table + "." + JobRowReader.JOB_COLUMNS.replace(", ", ", " + table + ".");
  }

  /** The job without its history, or empty. */
  static Optional<Job> find(Tx tx, long jobId) throws SQLException {
    return first(tx, JobRowReader.SELECT_JOB, jobId);
  }

  /**
   * The job, locked against every other change until this transaction ends, or empty. Waits for a
   * transaction that holds the lock and then reads the job as that one left it.
   */
  static Optional<Job> findForUpdate(Tx tx, long jobId) throws SQLException {
    return first(tx, JobRowReader.SELECT_JOB + " FOR UPDATE", jobId);
  }

  private static Optional<Job> first(Tx tx, String sql, long jobId) throws SQLException {
    PreparedStatement select = tx.prepare(sql);
    select.setLong(1, jobId);
    List<Job> jobs = jobs(select);
    return jobs.isEmpty() ? Optional.empty() : Optional.of(jobs.get(0));
  }

  /** The job's attempt history, oldest first. */
  static List<Attempt> history(Tx tx, long jobId) throws SQLException {
    PreparedStatement select = tx.prepare(JobRowReader.SELECT_HISTORY);
    select.setLong(1, jobId);
    return READER.history(select);
  }

  /** Every job of the result set, in its order. */
  static List<Job> jobs(PreparedStatement statement) throws SQLException {
    return READER.jobs(statement);
  }

  /** Instants as {@link Timestamps}; {@code bytea} as the driver reads it. */
  private static final class TimestampEncoding implements ColumnEncoding {
    @Nullable
    @Override
    public Instant instant(ResultSet row, int column) throws SQLException {
      return Timestamps.get(row, column);
    }

    @Nullable
    @Override
    public byte[] bytes(ResultSet row, int column) throws SQLException {
      return row.getBytes(column);
    }

    @Override
    public Instant asStored(Instant instant) {
      return Timestamps.truncate(instant);
    }
  }
}
