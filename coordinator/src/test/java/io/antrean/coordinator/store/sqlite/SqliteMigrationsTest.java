package io.antrean.coordinator.store.sqlite;

import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.PayloadContract;
import io.antrean.coordinator.store.TestJobs;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the schema reaches its latest version: on a new database, on databases left by earlier
 * versions before and after the move to Flyway, and never on one written by a newer version.
 */
class SqliteMigrationsTest extends SqliteStoreFixture {
  private static final String LATEST_FLYWAY_VERSION =
      "SELECT max(CAST(version AS INTEGER)) FROM flyway_schema_history WHERE success = 1";

  /**
   * After every test: the counts the triggers keep (V12) are the jobs there are, on a migrated
   * database too.
   */
  @AfterEach
  void queueCountsAreTheJobsThereAre() throws SQLException {
    DatabaseFile.assertQueueCountsAreTheJobs(dataDir);
  }

  private void reopen() {
    store.close();
    store = SqliteJobStore.open(dataDir, ROWS);
  }

  /** Takes back V15 (where the young jobs' log is folded up to), for databases from before it. */
  static void undoYoungLogFolds(QueueCountRowsTest.Sql sql) throws SQLException {
    sql.run("DROP TABLE young_log_folds");
    sql.run("DELETE FROM flyway_schema_history WHERE version = '15'");
  }

  /**
   * Takes back V14 ({@link QueueCountRowsTest#undoHotMovesCounted}) and V13 (payloads apart): every
   * payload back in its row, its NOT NULL back in the stored schema, the table and its Flyway entry
   * gone. The store must be closed.
   */
  static void undoPayloadsApart(Path dataDir) throws SQLException {
    QueueCountRowsTest.undoHotMovesCounted(sql -> DatabaseFile.update(dataDir, sql));
    DatabaseFile.update(
        dataDir,
        "UPDATE jobs SET payload ="
            + " (SELECT p.payload FROM job_payloads AS p WHERE p.job_id = jobs.id)"
            + " WHERE payload IS NULL");
    DatabaseFile.update(dataDir, "DROP TABLE job_payloads");
    DatabaseFile.onOneConnection(
        dataDir,
        statement ->
            StoredSchemaText.relax(statement, "jobs", "payload BLOB,", "payload BLOB NOT NULL,"));
    DatabaseFile.update(dataDir, "DELETE FROM flyway_schema_history WHERE version = '13'");
  }

  /** Takes back V8 (limits), for the tests of databases from before it. */
  private void undoLimitsMigration() throws SQLException {
    undoPayloadsApart(dataDir);
    QueueCountRowsTest.undoQueueCounts(this::update);
    undoDependenciesMigration();
    update("DROP INDEX jobs_running_by_key");
    update("DROP TABLE rate_buckets");
    update("ALTER TABLE jobs DROP COLUMN concurrency_key");
    for (String column :
        List.of(
            "max_running",
            "max_running_per_key",
            "rate_starts",
            "rate_interval_micros",
            "rate_per_key_starts",
            "rate_per_key_interval_micros",
            "rate_tokens",
            "rate_refilled_at_micros")) {
      update("ALTER TABLE queues DROP COLUMN " + column);
    }
  }

  /** Takes back V9 (dependencies) but for its wider state check, which V9 then leaves alone. */
  private void undoDependenciesMigration() throws SQLException {
    update("DROP TABLE job_dependencies");
    update("ALTER TABLE jobs DROP COLUMN has_dependents");
    update("ALTER TABLE jobs DROP COLUMN unmet_dependencies");
    update("ALTER TABLE jobs DROP COLUMN on_dependency_failure");
  }

  /** Takes back V7 (schedules and unique keys), for the tests of databases from before it. */
  private void dropVersionSeven() throws SQLException {
    update("DROP TABLE schedules");
    update("DROP INDEX jobs_unique_while_active");
    update("ALTER TABLE jobs DROP COLUMN unique_key");
  }

  /**
   * Makes the closed store's database look as the store left it before the schema moved to Flyway:
   * the version in {@code schema_version} (steps 1 to {@code version}), no Flyway history. The
   * caller first takes away what the later steps added.
   */
  private void recordVersionAsBeforeFlyway(int version) throws SQLException {
    update("DROP TABLE flyway_schema_history");
    update(
        "CREATE TABLE schema_version"
            + " (version INTEGER PRIMARY KEY, applied_at_micros INTEGER NOT NULL)");
    update(
        "WITH RECURSIVE step (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM step WHERE n < "
            + version
            + ") INSERT INTO schema_version SELECT n, 0 FROM step");
  }

  @Test
  void versionTwelveDatabaseKeepsItsPayloadsInTheirRowsAndKeepsNewLongOnesApart()
      throws SQLException {
    byte[] longPayload = PayloadContract.payload(JobPayloads.IN_ROW_MAX + 1);
    Job old = enqueue(job("old").payload(longPayload, "x").build());
    store.close();
    undoPayloadsApart(dataDir);
    String notNull =
        "SELECT instr(sql, 'payload BLOB NOT NULL') > 0 FROM sqlite_master WHERE name = 'jobs'";
    assertThat(query(notNull)).isEqualTo("1");
    assertThat(query("SELECT length(payload) FROM jobs"))
        .isEqualTo(String.valueOf(longPayload.length));

    store = SqliteJobStore.open(dataDir, ROWS);
    Job fresh = enqueue(job("new").payload(longPayload, "x").build());

    assertThat(query(LATEST_FLYWAY_VERSION))
        .isEqualTo(String.valueOf(SqliteSchema.latestVersion()));
    assertThat(query(notNull)).isEqualTo("0");
    assertThat(query("SELECT group_concat(job_id) FROM job_payloads"))
        .isEqualTo(String.valueOf(fresh.id()));
    assertThat(reload(old.id()).payload()).isEqualTo(longPayload);
    assertThat(reload(fresh.id()).payload()).isEqualTo(longPayload);
  }

  @Test
  void versionOneDatabaseGainsTheRetentionIndexes() throws SQLException {
    Job dead = deadLetter("t", at(1));
    store.close();
    undoLimitsMigration();
    update("DROP INDEX jobs_dead_letters");
    update("DROP INDEX jobs_finished");
    update("DROP INDEX idempotency_keys_expiry");
    update("DROP TABLE queues");
    update("ALTER TABLE jobs DROP COLUMN releases");
    update("ALTER TABLE jobs DROP COLUMN trace_parent");
    dropVersionSeven();
    update("ALTER TABLE jobs DROP COLUMN lease_id_sha256");
    update("ALTER TABLE attempts DROP COLUMN lease_id_sha256");
    recordVersionAsBeforeFlyway(1);

    store = SqliteJobStore.open(dataDir, ROWS);

    assertThat(query(LATEST_FLYWAY_VERSION))
        .isEqualTo(String.valueOf(SqliteSchema.latestVersion()));
    assertThat(
            query(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN"
                    + " ('jobs_dead_letters', 'jobs_finished', 'idempotency_keys_expiry')"))
        .isEqualTo("3");
    assertThat(ids(store.redrive(List.of(dead.id()), at(5), Duration.ZERO, at(5))))
        .containsExactly(dead.id());
  }

  @Test
  void versionTwoDatabaseGainsTheQueuesTable() throws SQLException {
    Job pending = enqueue("t");
    store.close();
    undoLimitsMigration();
    update("DROP TABLE queues");
    update("ALTER TABLE jobs DROP COLUMN releases");
    update("ALTER TABLE jobs DROP COLUMN trace_parent");
    dropVersionSeven();
    update("ALTER TABLE jobs DROP COLUMN lease_id_sha256");
    update("ALTER TABLE attempts DROP COLUMN lease_id_sha256");
    recordVersionAsBeforeFlyway(2);

    store = SqliteJobStore.open(dataDir, ROWS);

    assertThat(store.pausedQueues()).isEmpty();
    store.setQueuePaused(TestJobs.QUEUE, true, at(1));
    assertThat(store.lease(spec("w", 10, at(30)), at(2))).isEmpty();
    store.setQueuePaused(TestJobs.QUEUE, false, at(3));
    assertThat(ids(store.lease(spec("w", 10, at(30)), at(4)))).containsExactly(pending.id());
  }

  @Test
  void schemaIsAtTheLatestVersionAfterOpenAndReopen() throws SQLException {
    assertThat(SqliteSchema.latestVersion()).isGreaterThanOrEqualTo(5);
    assertThat(query(LATEST_FLYWAY_VERSION))
        .isEqualTo(String.valueOf(SqliteSchema.latestVersion()));
    // Versions may have gaps (numbers reserved for other changes): each file runs once.
    String applied = "SELECT count(*) FROM flyway_schema_history WHERE success = 1";
    String afterOpen = query(applied);
    reopen();
    assertThat(query(applied)).isEqualTo(afterOpen);
    assertThat(query(LATEST_FLYWAY_VERSION))
        .isEqualTo(String.valueOf(SqliteSchema.latestVersion()));
  }

  @Test
  void databaseFromBeforeFlywayAtTheLastStepKeepsItsJobsAndIsBaselined() throws SQLException {
    Job pending = enqueue("t");
    store.close();
    undoLimitsMigration();
    dropVersionSeven();
    update("ALTER TABLE jobs DROP COLUMN lease_id_sha256");
    update("ALTER TABLE attempts DROP COLUMN lease_id_sha256");
    recordVersionAsBeforeFlyway(5);

    store = SqliteJobStore.open(dataDir, ROWS);

    assertThat(query("SELECT version FROM flyway_schema_history WHERE type = 'BASELINE'"))
        .isEqualTo("5");
    assertThat(query(LATEST_FLYWAY_VERSION))
        .isEqualTo(String.valueOf(SqliteSchema.latestVersion()));
    assertThat(query("SELECT max(version) FROM schema_version")).isEqualTo("5");
    assertThat(ids(store.lease(spec("w", 10, at(30)), at(4)))).containsExactly(pending.id());
  }

  @Test
  void databaseFromBeforeFlywayWrittenByANewerVersionIsRefused() throws SQLException {
    store.close();
    recordVersionAsBeforeFlyway(999);

    assertThatThrownBy(() -> SqliteJobStore.open(dataDir, ROWS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("999");
    store = null;
  }

  @Test
  void databaseWrittenByANewerVersionIsRefused() throws SQLException {
    store.close();
    update(
        "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
            + " installed_by, execution_time, success) VALUES (999, '999', 'future', 'SQL',"
            + " 'V999__future.sql', 'test', 0, 1)");

    assertThatThrownBy(() -> SqliteJobStore.open(dataDir, ROWS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("999");
    store = null;
  }
}
