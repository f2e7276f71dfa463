package io.antrean.coordinator.store.sqlite;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Concurrently;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.JobStoreContract;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.TestJobs;
import io.antrean.coordinator.store.jdbc.DeadLetterQueue;
import io.antrean.coordinator.store.jdbc.LeaseWrites;
import io.antrean.coordinator.store.jdbc.RetentionWrites;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The contract on SQLite, plus what only an embedded file store has: durability, group commit. */
class SqliteJobStoreTest extends JobStoreContract {
  private static final Logger log = LoggerFactory.getLogger(SqliteJobStoreTest.class);

  @TempDir Path dataDir;

  @Override
  protected JobStore openStore() {
    return SqliteJobStore.open(dataDir);
  }

  private SqliteJobStore sqlite() {
    return (SqliteJobStore) store;
  }

  @Override
  public void reopenStore() {
    reopen();
  }

  private void reopen() {
    store.close();
    store = SqliteJobStore.open(dataDir);
  }

  /** Runs SQL on the database file while the store is closed (or only reads while it is open). */
  private String query(String sql) throws SQLException {
    return String.join("\n", DatabaseFile.lines(dataDir, sql));
  }

  private void update(String sql) throws SQLException {
    DatabaseFile.update(dataDir, sql);
  }

  private static final String LATEST_FLYWAY_VERSION =
      "SELECT max(CAST(version AS INTEGER)) FROM flyway_schema_history WHERE success = 1";

  /**
   * After every test, contract or not: the counts the triggers keep (V12) are the jobs there are,
   * whatever the test did to them.
   */
  @AfterEach
  void queueCountsAreTheJobsThereAre() throws SQLException {
    assertThat(query(QueueCountRowsTest.KEPT_COUNTS)).isEqualTo(query(QueueCountRowsTest.COUNTED));
  }

  /** Takes back V8 (limits), for the tests of databases from before it. */
  private void undoLimitsMigration() throws SQLException {
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
  void leaseIdSurvivesCloseAndReopen() {
    enqueue("t");
    Job leased = leaseOne("w");

    reopen();

    LeaseClaim guessed = new LeaseClaim(token(leased), LeaseId.generate());
    assertThatThrownBy(() -> store.complete(leased.id(), guessed, "w", null, null, at(1)))
        .isInstanceOf(LeaseLostException.class);
    assertThat(store.complete(leased.id(), claim(leased), "w", null, null, at(2)).state())
        .isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  void acknowledgedChangesSurviveCloseAndReopen() {
    Job pending = enqueue(job("email").key("k").payload("{\"to\":\"x\"}").build());
    Job running = enqueue("resize");
    Job leased = leaseOne("w");
    store.complete(leased.id(), claim(leased), "w", utf8("done"), "text/plain", at(1));
    Job stillRunning = leaseOne("w", at(2), at(30));

    reopen();

    Job done = reload(leased.id());
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.result()).isEqualTo(utf8("done"));
    assertThat(done.history()).hasSize(1);
    assertThat(reload(stillRunning.id()).lease()).isEqualTo(stillRunning.lease());
    assertThat(store.runningLeases()).hasSize(1);
    assertThat(
            store.enqueue(List.of(job("email").key("k").payload("{\"to\":\"x\"}").build()), at(3)))
        .singleElement()
        .satisfies(r -> assertThat(r.deduplicated()).isTrue());
    assertThat(pending.id()).isLessThan(running.id());
    assertThat(enqueue("next").id()).isGreaterThan(running.id());
  }

  @Test
  void fencingTokensKeepGrowingAcrossRestarts() {
    enqueue("t");
    Job first = leaseOne("w");
    store.release(first.id(), claim(first), "w", "restart", at(1));

    reopen();

    assertThat(token(leaseOne("w", at(2), at(30)))).isGreaterThan(token(first));
  }

  @Test
  void idsAreNotReusedAfterTheNewestJobIsDeleted() throws SQLException {
    Job newest = enqueue("t");
    store.close();
    update("DELETE FROM jobs WHERE id = " + newest.id());
    store = SqliteJobStore.open(dataDir);

    assertThat(enqueue("t").id()).isGreaterThan(newest.id());
  }

  @Test
  @Timeout(60)
  void concurrentWritersShareCommits() throws Exception {
    int threads = 16;
    int perThread = 50;
    long commitsBefore = sqlite().writer().commits();
    long operationsBefore = sqlite().writer().operations();
    AtomicInteger stored = new AtomicInteger();

    Concurrently.run(
        threads,
        () -> {
          for (int i = 0; i < perThread; i++) {
            enqueue("t");
            stored.incrementAndGet();
          }
        });

    long commits = sqlite().writer().commits() - commitsBefore;
    long operations = sqlite().writer().operations() - operationsBefore;
    log.info("{} enqueue operations from {} threads took {} commits", operations, threads, commits);
    assertThat(stored).hasValue(threads * perThread);
    assertThat(operations).isEqualTo(threads * perThread);
    assertThat(commits).isLessThan(operations);
  }

  @Test
  void leaseQueryWalksThePendingIndexWithoutSorting() throws SQLException {
    for (int types : new int[] {0, 2}) {
      String plan = query("EXPLAIN QUERY PLAN " + SqliteDialect.pickSql(types));

      assertThat(plan).contains("INDEX jobs_pending (queue=?)").doesNotContain("TEMP B-TREE");
    }
  }

  @Test
  void batchWritesFindEachRowByItsKeyWithoutScanning() throws SQLException {
    for (int jobs = 1; jobs <= BatchWrites.MAX_CHUNK; jobs *= 2) {
      assertThat(query("EXPLAIN QUERY PLAN " + BatchWrites.grantSql(jobs)))
          .contains("SEARCH jobs USING INTEGER PRIMARY KEY (rowid=?)")
          .doesNotContain("SCAN jobs");
      assertThat(query("EXPLAIN QUERY PLAN " + BatchWrites.succeedSql(jobs)))
          .contains("SEARCH jobs USING INTEGER PRIMARY KEY (rowid=?)")
          .doesNotContain("SCAN jobs");
      assertThat(query("EXPLAIN QUERY PLAN " + BatchWrites.endAttemptsSql(jobs)))
          .contains("SEARCH attempts USING INDEX attempts_job (job_id=? AND fencing_token=?)")
          .doesNotContain("SCAN attempts");
    }
  }

  @Test
  void batchWritesCutAListIntoFewChunksOfFewSizes() {
    assertThat(BatchWrites.chunks(0)).isEmpty();
    assertThat(BatchWrites.chunks(1)).containsExactly(1);
    assertThat(BatchWrites.chunks(10)).containsExactly(8, 2);
    assertThat(BatchWrites.chunks(64)).containsExactly(64);
    assertThat(BatchWrites.chunks(100)).containsExactly(64, 32, 4);
    assertThat(BatchWrites.chunks(1000))
        .containsExactly(64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 32, 8);
    for (int count = 0; count <= 300; count++) {
      assertThat(BatchWrites.chunks(count).stream().mapToInt(Integer::intValue).sum())
          .isEqualTo(count);
    }
  }

  @Test
  void perKeyRunningCountsUseTheIndexThatHoldsOnlyKeyedJobs() throws SQLException {
    String plan =
        query(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM jobs AS r WHERE r.state = 'RUNNING'"
                + " AND r.queue = 'q' AND r.concurrency_key = 'k'");
    String indexed =
        query("SELECT sql FROM sqlite_master WHERE name = 'jobs_running_by_key'")
            .replaceAll("\\s+", " ");

    assertThat(plan).contains("jobs_running_by_key");
    assertThat(indexed).contains("WHERE state = 'RUNNING' AND concurrency_key IS NOT NULL");
  }

  @Test
  void leaseStaysCorrectWithAManyJobBacklog() {
    List<NewJob> backlog = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      backlog.add(job("t").priority(i % 3).runAt(at(i % 7)).build());
    }
    store.enqueue(backlog, T0);

    List<Job> leased = store.lease(spec("w", 32, at(300)), at(10));

    assertThat(leased).hasSize(32).allSatisfy(j -> assertThat(j.priority()).isEqualTo(2));
    assertThat(leased)
        .isSortedAccordingTo(Comparator.comparing(Job::runAt).thenComparingLong(Job::id));
  }

  @Test
  void sweepQueryWalksTheRunningIndexWithoutSorting() throws SQLException {
    assertThat(query("EXPLAIN QUERY PLAN " + LeaseWrites.selectExpiredSql(SqliteDialect.INSTANCE)))
        .contains("USING INDEX jobs_running_expiry")
        .doesNotContain("TEMP B-TREE");
  }

  @Test
  void deadLetterListingWalksAnIndexWithoutSorting() throws SQLException {
    List<DeadLetterQuery> queries =
        List.of(
            new DeadLetterQuery(null, null, null, null, null, null, 50),
            new DeadLetterQuery(null, null, null, null, null, 1000L, 50),
            new DeadLetterQuery("mail", "email", null, null, null, 1000L, 50));
    for (DeadLetterQuery deadLetters : queries) {
      String plan =
          query(
              "EXPLAIN QUERY PLAN "
                  + DeadLetterQueue.listSql(
                      SqliteDialect.INSTANCE, deadLetters, new ArrayList<>()));

      assertThat(plan)
          .as("plan for %s", deadLetters)
          .containsPattern("USING (COVERING )?INDEX jobs_(dead_letters|queue_state)")
          .doesNotContain("TEMP B-TREE");
    }
  }

  @Test
  void retentionAndGrowthQueriesWalkTheirIndexes() throws SQLException {
    assertThat(
            query(
                "EXPLAIN QUERY PLAN " + RetentionWrites.selectFinishedSql(SqliteDialect.INSTANCE)))
        .contains("INDEX jobs_finished (state=? AND finished_at<?)")
        .doesNotContain("TEMP B-TREE");
    assertThat(
            query(
                "EXPLAIN QUERY PLAN "
                    + RetentionWrites.selectExpiredKeysSql(SqliteDialect.INSTANCE)))
        .contains("INDEX idempotency_keys_expiry (expires_at<?)")
        .doesNotContain("TEMP B-TREE");
    assertThat(
            query("EXPLAIN QUERY PLAN " + DeadLetterQueue.groupsSinceSql(SqliteDialect.INSTANCE)))
        .contains("INDEX jobs_finished (state=? AND finished_at>?)");
  }

  @Test
  void deletedJobsLeaveNoHistoryOrKeysBehind() throws SQLException {
    Job dead = deadLetter(job("a").key("ka").build(), at(1), "boom");
    Job done = succeeded(job("b").key("kb").build(), at(2));
    Job kept = succeeded(job("c").key("kc").build(), at(50));
    assertThat(query("SELECT count(*) FROM attempts")).isEqualTo("3");

    assertThat(store.purgeDeadLetters(List.of(dead.id()))).isEqualTo(1);
    assertThat(store.deleteFinished(JobState.SUCCEEDED, at(10), 10)).isEqualTo(1);

    String survivor = String.valueOf(kept.id());
    assertThat(query("SELECT group_concat(DISTINCT job_id) FROM attempts")).isEqualTo(survivor);
    assertThat(query("SELECT group_concat(job_id) FROM idempotency_keys")).isEqualTo(survivor);
    assertThat(done.id()).isNotEqualTo(kept.id());
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

    store = SqliteJobStore.open(dataDir);

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
  void queuePauseSurvivesCloseAndReopen() {
    enqueue("t");
    store.setQueuePaused(TestJobs.QUEUE, true, at(1));

    reopen();

    assertThat(store.pausedQueues()).containsExactly(entry(TestJobs.QUEUE, at(1)));
    assertThat(store.lease(spec("w", 10, at(30)), at(2))).isEmpty();
    store.setQueuePaused(TestJobs.QUEUE, false, at(3));
    reopen();
    assertThat(store.pausedQueues()).isEmpty();
    assertThat(store.lease(spec("w", 10, at(30)), at(4))).hasSize(1);
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

    store = SqliteJobStore.open(dataDir);

    assertThat(store.pausedQueues()).isEmpty();
    store.setQueuePaused(TestJobs.QUEUE, true, at(1));
    assertThat(store.lease(spec("w", 10, at(30)), at(2))).isEmpty();
    store.setQueuePaused(TestJobs.QUEUE, false, at(3));
    assertThat(ids(store.lease(spec("w", 10, at(30)), at(4)))).containsExactly(pending.id());
  }

  @Test
  void secondStoreOnTheSameDirectoryIsRefused() {
    assertThatThrownBy(() -> SqliteJobStore.open(dataDir))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("in use");
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

    store = SqliteJobStore.open(dataDir);

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

    assertThatThrownBy(() -> SqliteJobStore.open(dataDir))
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

    assertThatThrownBy(() -> SqliteJobStore.open(dataDir))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("999");
    store = null;
  }

  @Test
  @Timeout(30)
  void aBlockingCallFromTheThreadThatAnswersWritesIsRefusedAndStoresNothing() throws Exception {
    CountDownLatch attached = new CountDownLatch(1);
    CountDownLatch holding = new CountDownLatch(1);
    // The held write, from another thread (which may run it itself in a quiet moment), keeps the
    // connection until the dependent stage below is attached, so "first" queues and that stage
    // runs on the writer's thread (a group of one is answered there).
    CompletableFuture<Object> held =
        CompletableFuture.supplyAsync(
            () ->
                sqlite()
                    .writer()
                    .execute(
                        "hold",
                        c -> {
                          holding.countDown();
                          try {
                            assertThat(attached.await(10, TimeUnit.SECONDS)).isTrue();
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(
                                "interrupted while holding the writer", e);
                          }
                          return null;
                        }));
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Throwable> refusal =
        store
            .enqueueAsync(List.of(job("first").build()), T0)
            .thenApply(
                first -> {
                  try {
                    store.enqueue(List.of(job("nested").build()), T0);
                    return null;
                  } catch (IllegalStateException e) {
                    return e;
                  }
                });
    attached.countDown();

    assertThat(refusal.get(10, TimeUnit.SECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("use submit");
    held.get(10, TimeUnit.SECONDS);
    // Queued after the refusal, so it commits after anything the refused call might have queued.
    store.enqueue(List.of(job("after").build()), T0);
    assertThat(query("SELECT group_concat(type, ',') FROM (SELECT type FROM jobs ORDER BY id)"))
        .isEqualTo("first,after");
  }

  @Test
  void databaseIsInWalModeWithForeignKeys() throws SQLException {
    assertThat(query("PRAGMA journal_mode")).isEqualTo("wal");
    assertThat(query("PRAGMA foreign_key_list(attempts)")).isNotEmpty();
  }
}
