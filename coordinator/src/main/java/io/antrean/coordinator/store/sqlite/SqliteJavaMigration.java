package io.antrean.coordinator.store.sqlite;

import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * A schema step written in Java where SQL cannot make it (a constraint changed in the stored schema
 * text): its version, its description, and a checksum that is its version, since the step never
 * changes once released. Runs in the migration's transaction.
 */
abstract class SqliteJavaMigration implements JavaMigration {
  private final int version;
  private final String description;

  SqliteJavaMigration(int version, String description) {
    this.version = version;
    this.description = description;
  }

  @Override
  public final MigrationVersion getVersion() {
    return MigrationVersion.fromVersion(String.valueOf(version));
  }

  @Override
  public final String getDescription() {
    return description;
  }

  @Override
  public final Integer getChecksum() {
    return version;
  }

  @Override
  public final boolean canExecuteInTransaction() {
    return true;
  }
}
