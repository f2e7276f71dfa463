package io.antrean.coordinator.store.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * How one store's columns hold the values its JDBC driver does not read back alike: instants (an
 * INTEGER of epoch microseconds, a {@code timestamptz}) and binary columns. {@link JobRowReader}
 * reads everything else the same way for both stores.
 */
public interface ColumnEncoding {
  /** The instant in the column of the current row, or null for SQL NULL. */
  @Nullable
  Instant instant(ResultSet row, int column) throws SQLException;

  /** The bytes in the column of the current row (an empty value as an empty array), or null. */
  @Nullable
  byte[] bytes(ResultSet row, int column) throws SQLException;

  /**
   * The instant as it reads back after being stored: digits finer than the column keeps dropped.
   *
   * @throws IllegalArgumentException if the column cannot hold the instant
   */
  Instant asStored(Instant instant);
}
