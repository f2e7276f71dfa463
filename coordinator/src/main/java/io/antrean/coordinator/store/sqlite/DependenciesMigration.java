package io.antrean.coordinator.store.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Schema version 9 (the PostgreSQL side is {@code V8__dependencies.sql}): job dependencies and the
 * WAITING state. In Java rather than SQL because SQLite cannot alter a CHECK constraint: the state
 * check of {@code jobs} is widened in the stored schema text, the procedure SQLite documents for
 * relaxing a constraint ("Making Other Kinds Of Table Schema Changes", lang_altertable.html), which
 * bumps the schema cookie so every connection reads the new schema. Every existing row passes the
 * wider check, and the file format does not change.
 */
final class DependenciesMigration implements JavaMigration {
  private static final String[] STATEMENTS = {
    "ALTER TABLE jobs ADD COLUMN has_dependents INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE jobs ADD COLUMN unmet_dependencies INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE jobs ADD COLUMN on_dependency_failure TEXT",
    "CREATE TABLE job_dependencies ("
        + " job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,"
        + " depends_on_id INTEGER NOT NULL,"
        + " PRIMARY KEY (job_id, depends_on_id)) WITHOUT ROWID",
    "CREATE INDEX job_dependencies_depends_on ON job_dependencies (depends_on_id)",
  };
  private static final String OLD_CHECK = "'FAILED', 'CANCELLED')";
  private static final String NEW_CHECK = "'FAILED', 'CANCELLED', 'WAITING')";

  @Override
  public MigrationVersion getVersion() {
    return MigrationVersion.fromVersion("9");
  }

  @Override
  public String getDescription() {
    return "dependencies";
  }

  @Override
  public Integer getChecksum() {
    return 9;
  }

  @Override
  public boolean canExecuteInTransaction() {
    return true;
  }

  @Override
  public void migrate(Context context) throws SQLException {
    Connection connection = context.getConnection();
    try (Statement statement = connection.createStatement()) {
      for (String sql : STATEMENTS) {
        statement.execute(sql);
      }
      if (widened(statement)) {
        return;
      }
      int cookie;
      try (ResultSet row = statement.executeQuery("PRAGMA schema_version")) {
        row.next();
        cookie = row.getInt(1);
      }
      statement.execute("PRAGMA writable_schema = ON");
      int changed =
          statement.executeUpdate(
              "UPDATE sqlite_master SET sql = replace(sql, '"
                  + OLD_CHECK.replace("'", "''")
                  + "', '"
                  + NEW_CHECK.replace("'", "''")
                  + "') WHERE type = 'table' AND name = 'jobs' AND instr(sql, '"
                  + OLD_CHECK.replace("'", "''")
                  + "') > 0");
      if (changed != 1) {
        throw new IllegalStateException("the jobs table's state check was not found to widen");
      }
      statement.execute("PRAGMA schema_version = " + (cookie + 1));
      statement.execute("PRAGMA writable_schema = OFF");
    }
  }

  /** True when the state check already allows WAITING (a database migrated back by hand). */
  private static boolean widened(Statement statement) throws SQLException {
    try (ResultSet row =
        statement.executeQuery(
            "SELECT instr(sql, '"
                + NEW_CHECK.replace("'", "''")
                + "') > 0 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'")) {
      return row.next() && row.getBoolean(1);
    }
  }
}
