package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.jdbc.JdbcSession;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Where a job's payload is kept: in the job's row, or, when it is longer than {@link #IN_ROW_MAX}
 * bytes, once in {@code job_payloads} (migration V13) with NULL in the row. SQLite writes a row's
 * whole record again, overflow pages included, whenever an UPDATE changes the record's length, and
 * a job's lease and its completion both do: a 100 KiB payload kept in the row went to the WAL three
 * times and was checkpointed three times. Kept apart it is written once, and the row the state
 * changes rewrite stays a few hundred bytes. A payload is never changed after its insert; deleting
 * the job deletes it (a foreign key with ON DELETE CASCADE).
 */
final class JobPayloads {
  /**
   * The longest payload kept in its row: half a 4 KiB page, past which a row no longer shares its
   * page with others and, a little further, spills into overflow pages.
   */
  static final int IN_ROW_MAX = 2048;

  private static final String INSERT = "INSERT INTO job_payloads (job_id, payload) VALUES (?, ?)";
  private static final String SELECT = "SELECT payload FROM job_payloads WHERE job_id = ?";

  private JobPayloads() {}

  static boolean keptApart(byte[] payload) {
    return payload.length > IN_ROW_MAX;
  }

  /** Binds the row's {@code payload}: the bytes, or NULL for a payload kept apart. */
  static void bind(PreparedStatement insert, int index, byte[] payload) throws SQLException {
    if (keptApart(payload)) {
      insert.setNull(index, Types.BLOB);
    } else {
      insert.setBytes(index, payload);
    }
  }

  /** Stores the payload of a job just inserted, if {@link #bind} left it out of the row. */
  static void storeApart(JdbcSession session, long jobId, byte[] payload) throws SQLException {
    if (keptApart(payload)) {
      PreparedStatement insert = session.prepare(INSERT);
      insert.setLong(1, jobId);
      insert.setBytes(2, payload);
      insert.executeUpdate();
    }
  }

  /**
   * The payload kept apart for the job.
   *
   * @throws IllegalStateException if there is none
   */
  static byte[] readApart(JdbcSession session, long jobId) throws SQLException {
    PreparedStatement select = session.prepare(SELECT);
    select.setLong(1, jobId);
    try (ResultSet row = select.executeQuery()) {
      if (!row.next()) {
        throw new IllegalStateException("job " + jobId + " has no payload in its row or apart");
      }
      return row.getBytes(1);
    }
  }
}
