package io.antrean.coordinator.store.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versioned schema: Flyway applies the SQL migrations under {@code db/sqlite} (V1__...,
 * V2__...) at open, each once, recorded in {@code flyway_schema_history}, the same tool and the
 * same kind of files as PostgreSQL's. A released migration is never edited, only followed by a new
 * one. Times are epoch microseconds in INTEGER columns (see {@link Micros}).
 *
 * <p>A database written before the schema moved to Flyway carries its version in a table {@value
 * #LEGACY_TABLE} instead (steps 1 to 5 were the files V1 to V5 of today). Such a database is
 * baselined at that version, so only the later migrations run, and its old table stays as it was.
 * Unlike on PostgreSQL, where coordinators are upgraded one at a time, a database written by a
 * newer coordinator is refused: only one store opens a SQLite file.
 */
final class SqliteSchema {
  private static final Logger log = LoggerFactory.getLogger(SqliteSchema.class);

  /** Where the versions of the schema before Flyway were recorded. */
  static final String LEGACY_TABLE = "schema_version";

  private static final String FLYWAY_TABLE = "flyway_schema_history";

  private SqliteSchema() {}

  /** The version the migrations on the class path bring a database to. */
  static int latestVersion() {
    return Latest.VERSION;
  }

  /** Resolved once: resolving the migrations needs a database, and an empty one has them all. */
  private static final class Latest {
    static final int VERSION =
        Integer.parseInt(latest(configure("jdbc:sqlite::memory:").load()).getVersion());
  }

  /**
   * Brings the database at {@code jdbcUrl} to {@link #latestVersion()}; {@code connection} (to the
   * same database) is used to read which version it is at first.
   *
   * @throws IllegalStateException if the database was written by a newer version of Antrean
   * @throws org.flywaydb.core.api.FlywayException if a migration fails
   */
  static void migrate(String jdbcUrl, Connection connection) throws SQLException {
    FluentConfiguration config = configure(jdbcUrl);
    int legacy = legacyVersion(connection);
    int found = legacy > 0 ? legacy : flywayVersion(connection);
    if (found > latestVersion()) {
      throw new IllegalStateException(
          "database schema version "
              + found
              + " is newer than this coordinator's "
              + latestVersion()
              + "; upgrade the coordinator");
    }
    if (legacy > 0) {
      config
          .baselineOnMigrate(true)
          .baselineVersion(String.valueOf(legacy))
          .baselineDescription("versions 1 to " + legacy + " from " + LEGACY_TABLE);
    }
    MigrateResult result = config.load().migrate();
    if (result.migrationsExecuted > 0 || legacy > 0) {
      log.info(
          "SQLite schema migrated from version {} to {}",
          legacy > 0 ? legacy : result.initialSchemaVersion,
          latestVersion());
    }
  }

  private static FluentConfiguration configure(String jdbcUrl) {
    return Flyway.configure(SqliteSchema.class.getClassLoader())
        .dataSource(jdbcUrl, null, null)
        .locations(SqliteDialect.INSTANCE.migrationsLocation())
        .javaMigrations(new DependenciesMigration(), new PayloadsApartMigration())
        // A jar that lost its migrations must not pass for an empty, up-to-date schema.
        .failOnMissingLocations(true);
  }

  private static MigrationVersion latest(Flyway flyway) {
    return Arrays.stream(flyway.info().all())
        .filter(migration -> migration.getState().isResolved())
        .map(MigrationInfo::getVersion)
        .max(Comparator.naturalOrder())
        .orElseThrow(() -> new IllegalStateException("no SQLite schema migrations found"));
  }

  /**
   * The version recorded in {@value #LEGACY_TABLE} by a store from before Flyway, or 0 for a new
   * database or one Flyway already looks after.
   */
  private static int legacyVersion(Connection connection) throws SQLException {
    if (hasTable(connection, FLYWAY_TABLE) || !hasTable(connection, LEGACY_TABLE)) {
      return 0;
    }
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT max(version) FROM " + LEGACY_TABLE)) {
      return rows.next() ? rows.getInt(1) : 0;
    }
  }

  /** The highest version Flyway applied, or 0. */
  private static int flywayVersion(Connection connection) throws SQLException {
    if (!hasTable(connection, FLYWAY_TABLE)) {
      return 0;
    }
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT max(CAST(version AS INTEGER)) FROM "
                    + FLYWAY_TABLE
                    + " WHERE success = 1")) {
      return rows.next() ? rows.getInt(1) : 0;
    }
  }

  private static boolean hasTable(Connection connection, String table) throws SQLException {
    try (ResultSet rows = connection.getMetaData().getTables(null, null, table, null)) {
      return rows.next();
    }
  }
}
