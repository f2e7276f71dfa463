package io.antrean.coordinator.store.sqlite;

import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.migration.Context;

/**
 * Schema version 13 (SQLite only; PostgreSQL keeps long values out of the row itself): the table
 * {@code job_payloads}, where {@link JobPayloads} keeps the payloads too long to keep in their
 * job's row, which then holds NULL. In Java rather than SQL because SQLite cannot drop a NOT NULL
 * constraint: the payload column's is dropped in the stored schema text ({@link StoredSchemaText}).
 * Every existing row keeps its payload where it is.
 */
final class PayloadsApartMigration extends SqliteJavaMigration {
  private static final String CREATE_TABLE =
      "CREATE TABLE job_payloads ("
          + " job_id INTEGER PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,"
          + " payload BLOB NOT NULL)";

  PayloadsApartMigration() {
    super(13, "payloads apart");
  }

  @Override
  public void migrate(Context context) throws SQLException {
    try (Statement statement = context.getConnection().createStatement()) {
      statement.execute(CREATE_TABLE);
      StoredSchemaText.relax(statement, "jobs", "payload BLOB NOT NULL,", "payload BLOB,");
    }
  }
}
