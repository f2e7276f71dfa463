package io.antrean.coordinator.store.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versioned schema. Steps are applied in order at open, each in its own transaction together
 * with its row in {@code schema_version}; a step once released is never edited, only followed by a
 * new one. Times are epoch microseconds in INTEGER columns (see {@link Micros}).
 */
final class SqliteSchema {
  private static final Logger log = LoggerFactory.getLogger(SqliteSchema.class);

  /** Step n (1-based) brings the schema from version n-1 to n. */
  private static final List<List<String>> STEPS =
      List.of(
          List.of(
              """
              CREATE TABLE jobs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                queue TEXT NOT NULL,
                type TEXT NOT NULL,
                payload BLOB NOT NULL,
                content_type TEXT NOT NULL,
                priority INTEGER NOT NULL,
                run_at INTEGER NOT NULL,
                idempotency_key TEXT,
                max_attempts INTEGER NOT NULL,
                initial_backoff_micros INTEGER NOT NULL,
                backoff_multiplier REAL NOT NULL,
                max_backoff_micros INTEGER NOT NULL,
                max_lease_expiries INTEGER NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                lease_expiries INTEGER NOT NULL DEFAULT 0,
                state TEXT NOT NULL
                  CHECK (state IN ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
                result BLOB,
                result_content_type TEXT,
                last_error TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                finished_at INTEGER,
                lease_worker_id TEXT,
                lease_token INTEGER NOT NULL DEFAULT 0,
                lease_expires_at INTEGER,
                progress TEXT,
                cancel_requested INTEGER NOT NULL DEFAULT 0
              )""",
              "CREATE INDEX jobs_pending ON jobs (queue, priority DESC, run_at, id)"
                  + " WHERE state = 'PENDING'",
              "CREATE INDEX jobs_running_expiry ON jobs (lease_expires_at) WHERE state = 'RUNNING'",
              "CREATE INDEX jobs_queue_state ON jobs (queue, state)",
              """
              CREATE TABLE attempts (
                id INTEGER PRIMARY KEY,
                job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
                attempt INTEGER NOT NULL,
                worker_id TEXT NOT NULL,
                fencing_token INTEGER NOT NULL,
                leased_at INTEGER NOT NULL,
                ended_at INTEGER,
                outcome TEXT NOT NULL,
                error_kind TEXT,
                error_type TEXT,
                error_message TEXT,
                stack_trace TEXT
              )""",
              "CREATE INDEX attempts_job ON attempts (job_id, fencing_token)",
              """
              CREATE TABLE idempotency_keys (
                queue TEXT NOT NULL,
                key TEXT NOT NULL,
                job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
                fingerprint BLOB NOT NULL,
                expires_at INTEGER NOT NULL,
                PRIMARY KEY (queue, key)
              ) WITHOUT ROWID""",
              "CREATE INDEX idempotency_keys_job ON idempotency_keys (job_id)"),
          // 2: dead-letter listing, retention and key expiry walk an index instead of the table.
          List.of(
              "CREATE INDEX jobs_dead_letters ON jobs (id) WHERE state = 'FAILED'",
              "CREATE INDEX jobs_finished ON jobs (state, finished_at)"
                  + " WHERE finished_at IS NOT NULL",
              "CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)"),
          // 3: queue control; a queue has a row once it was first paused, paused_at NULL when not.
          List.of("CREATE TABLE queues (name TEXT PRIMARY KEY, paused_at INTEGER) WITHOUT ROWID"),
          // 4: leases handed back unrun, counted apart so that attempts never drops.
          List.of("ALTER TABLE jobs ADD COLUMN releases INTEGER NOT NULL DEFAULT 0"),
          // 5: the producer's W3C traceparent, carried to the worker; NULL for none.
          List.of("ALTER TABLE jobs ADD COLUMN trace_parent TEXT"),
          // 6: reserved for the lease id (issue F1); empty until that change lands here.
          List.of(),
          // 7: durable schedules (times in epoch microseconds, as everywhere here) and
          // unique-while-active keys; the same tables as PostgreSQL's V6__schedules.sql.
          List.of(
              """
              CREATE TABLE schedules (
                name TEXT PRIMARY KEY,
                cron TEXT,
                time_zone TEXT,
                interval_micros INTEGER,
                queue TEXT NOT NULL,
                type TEXT NOT NULL,
                payload BLOB NOT NULL,
                content_type TEXT NOT NULL,
                priority INTEGER NOT NULL,
                max_attempts INTEGER NOT NULL,
                initial_backoff_micros INTEGER NOT NULL,
                backoff_multiplier REAL NOT NULL,
                max_backoff_micros INTEGER NOT NULL,
                max_lease_expiries INTEGER NOT NULL,
                misfire_policy TEXT NOT NULL,
                misfire_limit INTEGER NOT NULL,
                overlap_policy TEXT NOT NULL,
                paused_micros INTEGER,
                next_fire_micros INTEGER NOT NULL,
                last_fire_micros INTEGER,
                last_job_id INTEGER,
                fires INTEGER NOT NULL,
                misses INTEGER NOT NULL,
                created_micros INTEGER NOT NULL,
                updated_micros INTEGER NOT NULL
              ) WITHOUT ROWID""",
              "CREATE INDEX schedules_due ON schedules (next_fire_micros)"
                  + " WHERE paused_micros IS NULL",
              "ALTER TABLE jobs ADD COLUMN unique_key TEXT",
              "CREATE UNIQUE INDEX jobs_unique_while_active ON jobs (queue, unique_key)"
                  + " WHERE unique_key IS NOT NULL AND state IN ('PENDING', 'RUNNING')"));

  private SqliteSchema() {}

  /** The version this code writes and expects. */
  static int latestVersion() {
    return STEPS.size();
  }

  /**
   * Brings the database to {@link #latestVersion()}.
   *
   * @throws IllegalStateException if the database was written by a newer version of Antrean
   */
  static void migrate(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS schema_version"
              + " (version INTEGER PRIMARY KEY, applied_at_micros INTEGER NOT NULL)");
      int current = currentVersion(statement);
      if (current > latestVersion()) {
        throw new IllegalStateException(
            "database schema version "
                + current
                + " is newer than this coordinator's "
                + latestVersion()
                + "; upgrade the coordinator");
      }
      for (int version = current + 1; version <= latestVersion(); version++) {
        apply(statement, version);
      }
    }
  }

  static int currentVersion(Statement statement) throws SQLException {
    try (ResultSet rows = statement.executeQuery("SELECT max(version) FROM schema_version")) {
      return rows.next() ? rows.getInt(1) : 0;
    }
  }

  private static void apply(Statement statement, int version) throws SQLException {
    statement.execute("BEGIN IMMEDIATE");
    try {
      for (String sql : STEPS.get(version - 1)) {
        statement.execute(sql);
      }
      statement.execute(
          "INSERT INTO schema_version (version, applied_at_micros) VALUES ("
              + version
              + ", "
              + Micros.of(Instant.now())
              + ")");
      statement.execute("COMMIT");
    } catch (SQLException | RuntimeException e) {
      try {
        statement.execute("ROLLBACK");
      } catch (SQLException rollback) {
        e.addSuppressed(rollback);
      }
      throw e;
    }
    log.info("SQLite schema migrated to version {}", version);
  }
}
