package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.jdbc.ColumnEncoding;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * Rows of {@code jobs} and {@code attempts} to and from domain records, in SQLite's encoding:
 * instants as epoch microseconds in INTEGER columns.
 */
final class JobRows {
  static final JobRowReader READER = new JobRowReader(new MicrosEncoding());

  private JobRows() {}

  /** The job without its history, or empty. */
  static Optional<Job> find(CachedConnection connection, long jobId) throws SQLException {
    PreparedStatement select = connection.prepare(JobRowReader.SELECT_JOB);
    select.setLong(1, jobId);
    try (ResultSet rows = select.executeQuery()) {
      return rows.next() ? Optional.of(READER.job(rows)) : Optional.empty();
    }
  }

  /** The job's attempt history, oldest first. */
  static List<Attempt> history(CachedConnection connection, long jobId) throws SQLException {
    PreparedStatement select = connection.prepare(JobRowReader.SELECT_HISTORY);
    select.setLong(1, jobId);
    return READER.history(select);
  }

  /** Every job of the result set, in its order. */
  static List<Job> jobs(PreparedStatement statement) throws SQLException {
    return READER.jobs(statement);
  }

  /** The one job the statement returns (a RETURNING clause on one row). */
  static Job single(PreparedStatement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery()) {
      if (!rows.next()) {
        throw new IllegalStateException("expected one job row, got none");
      }
      return READER.job(rows);
    }
  }

  /** Binds a nullable INTEGER parameter. */
  static void setNullableLong(PreparedStatement statement, int index, @Nullable Long value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.INTEGER);
    } else {
      statement.setLong(index, value);
    }
  }

  /** Instants as {@link Micros}; BLOBs told apart from NULL, which sqlite-jdbc blurs. */
  private static final class MicrosEncoding implements ColumnEncoding {
    @Nullable
    @Override
    public Instant instant(ResultSet row, int column) throws SQLException {
      long micros = row.getLong(column);
      return row.wasNull() ? null : Micros.toInstant(micros);
    }

    /** SQLite may hand a zero-length blob back as null, so NULL is told apart here. */
    @Nullable
    @Override
    public byte[] bytes(ResultSet row, int column) throws SQLException {
      byte[] bytes = row.getBytes(column);
      if (bytes != null) {
        return bytes;
      }
      return row.getObject(column) == null ? null : new byte[0];
    }

    @Override
    public Instant asStored(Instant instant) {
      return Micros.truncate(instant);
    }
  }
}
