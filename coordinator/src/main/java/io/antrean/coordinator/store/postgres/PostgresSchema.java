package io.antrean.coordinator.store.postgres;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versioned schema: Flyway applies the SQL migrations under {@code db/postgres} (V1__...,
 * V2__...) at open, each once, recorded in {@code flyway_schema_history} inside the store's schema.
 * A released migration is never edited, only followed by a new one.
 *
 * <p>Many coordinators may open the store at once: Flyway holds a PostgreSQL advisory lock while it
 * migrates, so one applies the migrations and the others find them applied. A database already
 * migrated by a newer coordinator is accepted (its extra migrations are reported, not refused), so
 * coordinators can be upgraded one at a time; migrations therefore only ever add to the schema in a
 * way the previous release can live with.
 */
final class PostgresSchema {
  private static final Logger log = LoggerFactory.getLogger(PostgresSchema.class);

  private PostgresSchema() {}

  /**
   * Brings the schema up to date.
   *
   * @throws org.flywaydb.core.api.FlywayException if a migration fails or none can be found
   */
  static void migrate(PostgresOptions options) {
    String schema = options.schema();
    // Flyway's own connections, not the pool's: it may want two at once, more than a small pool
    // has.
    MigrateResult result =
        Flyway.configure(PostgresSchema.class.getClassLoader())
            .dataSource(options.jdbcUrl(), options.user(), options.password())
            .schemas(schema)
            .defaultSchema(schema)
            .createSchemas(true)
            .locations(PostgresDialect.INSTANCE.migrationsLocation())
            // A jar that lost its migrations must not pass for an empty, up-to-date schema.
            .failOnMissingLocations(true)
            .load()
            .migrate();
    if (result.migrationsExecuted > 0) {
      log.info(
          "PostgreSQL schema {} migrated from version {} to {}",
          schema,
          result.initialSchemaVersion == null ? "none" : result.initialSchemaVersion,
          result.targetSchemaVersion);
    }
  }
}
