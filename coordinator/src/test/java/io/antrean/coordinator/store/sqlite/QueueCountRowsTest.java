package io.antrean.coordinator.store.sqlite;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.JobStoreFixture;
import io.antrean.coordinator.store.QueueCounts;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The counts per queue and state that triggers keep (migration V12), but for a lease's and a
 * completion's moves, which the code that makes them counts (V14), and the stats read from them.
 * That they stay right under every write is checked after each of {@link SqliteJobStoreTest}'s
 * tests, the whole store contract among them.
 */
class QueueCountRowsTest implements JobStoreFixture {
  // The rows path: these tests read the database file as the operations write it.
  private static final SqliteOptions ROWS = SqliteOptions.defaults().withYoungJobs(false);

  /** The kept counts, one line per queue and state, zeros left out but not negative ones. */
  static final String KEPT_COUNTS =
      "SELECT queue || '/' || state || '=' || jobs FROM queue_counts WHERE jobs <> 0"
          + " ORDER BY queue, state";

  /** The same lines counted from the jobs. */
  static final String COUNTED =
      "SELECT queue || '/' || state || '=' || count(*) FROM jobs GROUP BY queue, state"
          + " ORDER BY queue, state";

  /** Runs one SQL statement. */
  @FunctionalInterface
  interface Sql {
    void run(String sql) throws SQLException;
  }

  /** Takes back V14: the trigger counts every change of state again, as V12 made it. */
  static void undoHotMovesCounted(Sql sql) throws SQLException {
    SqliteMigrationsTest.undoYoungLogFolds(sql);
    sql.run("DROP TRIGGER jobs_counted_on_update");
    sql.run(
        "CREATE TRIGGER jobs_counted_on_update AFTER UPDATE OF queue, state ON jobs"
            + " WHEN OLD.queue IS NOT NEW.queue OR OLD.state IS NOT NEW.state BEGIN"
            + " UPDATE queue_counts SET jobs = jobs - 1 WHERE queue = OLD.queue AND state = OLD.state;"
            + " INSERT INTO queue_counts (queue, state, jobs) VALUES (NEW.queue, NEW.state, 1)"
            + " ON CONFLICT (queue, state) DO UPDATE SET jobs = jobs + 1; END");
    sql.run("DELETE FROM flyway_schema_history WHERE version = '14'");
  }

  /** Takes back V12, for the tests of databases from before it. */
  static void undoQueueCounts(Sql sql) throws SQLException {
    sql.run("DROP TRIGGER jobs_counted_on_insert");
    sql.run("DROP TRIGGER jobs_counted_on_update");
    sql.run("DROP TRIGGER jobs_counted_on_delete");
    sql.run("DROP TABLE queue_counts");
    sql.run("DELETE FROM flyway_schema_history WHERE version = '12'");
  }

  @TempDir Path dataDir;
  private SqliteJobStore store;

  @Override
  public JobStore store() {
    return store;
  }

  @BeforeEach
  void open() {
    store = SqliteJobStore.open(dataDir, ROWS);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aDatabaseFromBeforeTheCountsGainsThemForTheJobsItHolds() throws SQLException {
    store.enqueue(
        List.of(
            job("a").build(),
            job("b").build(),
            job("c").build(),
            job("later").runAt(at(60)).build(),
            job("elsewhere").queue("other").build()),
        T0);
    List<Job> leased = store.lease(spec("w", 2, at(30)), T0);
    store.complete(leased.get(0).id(), claim(leased.get(0)), "w", null, null, T0);
    store.close();
    SqliteMigrationsTest.undoPayloadsApart(dataDir);
    undoQueueCounts(this::update);
    assertThat(query("SELECT count(*) FROM sqlite_master WHERE name = 'queue_counts'"))
        .containsExactly("0");

    store = SqliteJobStore.open(dataDir, ROWS);

    assertThat(query(KEPT_COUNTS))
        .containsExactly(
            "default/PENDING=2", "default/RUNNING=1", "default/SUCCEEDED=1", "other/PENDING=1");
    assertThat(store.stats(null, T0))
        .containsExactly(
            new QueueCounts(QUEUE, 1, 1, 1, 1, 0, 0, Duration.ZERO),
            new QueueCounts("other", 1, 0, 0, 0, 0, 0, Duration.ZERO));
    store.fail(leased.get(1).id(), claim(leased.get(1)), "w", PERMANENT, NEVER_RETRY, T0);
    assertThat(query(KEPT_COUNTS)).isEqualTo(query(COUNTED));
  }

  @Test
  void leasesAndCompletionsCountTheirMovesByStatementNotByTrigger() throws SQLException {
    store.enqueue(
        List.of(
            job("a").build(),
            job("b").build(),
            job("c").build(),
            job("d").queue("other").build(),
            job("e").queue("other").build()),
        T0);
    List<Job> here = store.lease(spec("w", 3, at(30)), T0);
    Job there = leaseIn("other", T0);
    assertThat(query(KEPT_COUNTS))
        .containsExactly("default/RUNNING=3", "other/PENDING=1", "other/RUNNING=1");

    store.completeAll(
        "w",
        List.of(
            new Completion(here.get(0).id(), claim(here.get(0)), null, null),
            new Completion(there.id(), claim(there), null, null),
            new Completion(here.get(1).id(), claim(here.get(1)), null, null)),
        T0);
    store.complete(here.get(2).id(), claim(here.get(2)), "w", null, null, T0);
    assertThat(query(KEPT_COUNTS))
        .containsExactly("default/SUCCEEDED=3", "other/PENDING=1", "other/SUCCEEDED=1");

    // The trigger counts every other move ...
    update("UPDATE jobs SET state = 'CANCELLED' WHERE state = 'PENDING'");
    assertThat(query(KEPT_COUNTS))
        .containsExactly("default/SUCCEEDED=3", "other/CANCELLED=1", "other/SUCCEEDED=1");
    // ... and leaves these two to the statements that make them (migration V14).
    enqueue(job("f").queue("other").build());
    update("UPDATE jobs SET state = 'RUNNING' WHERE state = 'PENDING'");
    update("UPDATE jobs SET state = 'SUCCEEDED' WHERE state = 'RUNNING'");
    assertThat(query(KEPT_COUNTS))
        .containsExactly(
            "default/SUCCEEDED=3", "other/CANCELLED=1", "other/PENDING=1", "other/SUCCEEDED=1");
  }

  @Test
  void aDatabaseFromBeforeTheStatementsCountedGoesOnCountingRight() throws SQLException {
    store.enqueue(
        List.of(job("a").build(), job("b").build(), job("c").build(), job("d").build()), T0);
    List<Job> before = store.lease(spec("w", 2, at(30)), T0);
    store.complete(before.get(0).id(), claim(before.get(0)), "w", null, null, T0);
    store.close();
    // A database of V13: its jobs leased and completed, its trigger counting every move.
    undoHotMovesCounted(this::update);

    store = SqliteJobStore.open(dataDir, ROWS);
    store.complete(before.get(1).id(), claim(before.get(1)), "w", null, null, T0);
    Job after = store.lease(spec("w", 1, at(30)), T0).get(0);

    assertThat(after.id()).isNotIn(before.get(0).id(), before.get(1).id());
    assertThat(query(KEPT_COUNTS))
        .containsExactly("default/PENDING=1", "default/RUNNING=1", "default/SUCCEEDED=2");
    assertThat(query(KEPT_COUNTS)).isEqualTo(query(COUNTED));
  }

  @Test
  void statsReadTheKeptCountsAndWalkOnlyTheJobsNotYetDue() throws SQLException {
    assertThat(plan(QueueCountRows.ALL_COUNTS)).allMatch(step -> !step.contains("jobs"));
    assertThat(plan(QueueCountRows.NEXT_PRIORITY))
        .containsExactly("SEARCH jobs USING COVERING INDEX jobs_pending (queue=? AND priority<?)");
    assertThat(plan(QueueCountRows.NOT_YET_DUE))
        .containsExactly(
            "SEARCH jobs USING COVERING INDEX jobs_pending (queue=? AND priority=? AND run_at>?)");
  }

  @Test
  void finishedAndDeletedJobsLeaveTheCountsOfTheirQueue() throws SQLException {
    Job done = enqueue(job("a").queue("gone").build());
    Job leased = leaseIn("gone", T0);
    store.complete(leased.id(), claim(leased), "w", null, null, T0);
    assertThat(store.stats(null, T0)).extracting(QueueCounts::queue).containsExactly("gone");

    update("DELETE FROM jobs WHERE id = " + done.id());

    assertThat(query(KEPT_COUNTS)).isEmpty();
    assertThat(store.stats(null, T0)).isEmpty();
  }

  private List<String> plan(String sql) throws SQLException {
    return query("EXPLAIN QUERY PLAN " + sql);
  }

  private List<String> query(String sql) throws SQLException {
    return DatabaseFile.lines(dataDir, sql);
  }

  private void update(String sql) throws SQLException {
    DatabaseFile.update(dataDir, sql);
  }
}
