package io.antrean.coordinator.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.migration.Context;

/**
 * Schema version 9 (the PostgreSQL side is {@code V8__dependencies.sql}): job dependencies and the
 * WAITING state. In Java rather than SQL because SQLite cannot alter a CHECK constraint: the state
 * check of {@code jobs} is widened in the stored schema text ({@link StoredSchemaText}).
 */
final class DependenciesMigration extends SqliteJavaMigration {
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

  DependenciesMigration() {
    super(9, "dependencies");
  }

  @Override
  public void migrate(Context context) throws SQLException {
    Connection connection = context.getConnection();
    try (Statement statement = connection.createStatement()) {
      for (String sql : STATEMENTS) {
        statement.execute(sql);
      }
      StoredSchemaText.relax(statement, "jobs", OLD_CHECK, NEW_CHECK);
    }
  }
}
