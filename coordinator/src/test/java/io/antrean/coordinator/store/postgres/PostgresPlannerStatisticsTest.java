package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.postgres.PlannerStatistics.Turn.FEW_CHANGES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.postgres.PlannerStatistics.Turn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * The store analyzes the jobs table when the planner is far wrong about how many jobs are pending
 * ({@link PlannerStatistics}): after a burst into a table whose last ANALYZE saw none pending, and
 * after the pending jobs of the last ANALYZE have all finished; not while its estimate holds,
 * however much of the table changes. Whatever the statistics say, a lease walks {@code
 * jobs_pending} in order (migration V15): the plan is the one {@code lease_jobs} keeps.
 */
@Timeout(60)
class PostgresPlannerStatisticsTest {
  private static final Pattern PLANNED_ROWS = Pattern.compile(" rows=(\\d+) ");

  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private PostgresOptions options;
  private PostgresJobStore store;

  @BeforeEach
  void openWithAnAnalyzedQueue() throws Exception {
    options = postgres.freshSchema();
    store = PostgresJobStore.open(options);
    // Autovacuum would analyze the table at a moment of its own; only the store does here.
    execute("ALTER TABLE jobs SET (autovacuum_enabled = false)");
    // The schema may be one an earlier test emptied: the server's counts go on from there.
    long inserted = stat("n_tup_ins");
    enqueue("known", 4_000);
    // Once the server has counted those rows, this analyze leaves no change of theirs uncounted.
    awaitStat("n_tup_ins", count -> count >= inserted + 4_000);
    execute("ANALYZE jobs");
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aBurstIntoATableAnalyzedWithNoPendingJobIsLeasedInIndexOrderBeforeAnyAnalyze()
      throws Exception {
    finishEveryJobAndAnalyze();
    enqueue("burst", 4_000);

    assertThat(plannedPending()).isLessThan(100);
    assertThat(leasePlan()).contains("Index Scan using jobs_pending").doesNotContain("Sort");
  }

  @Test
  void aBurstIntoATableAnalyzedWithNoPendingJobIsAnalyzed() throws Exception {
    finishEveryJobAndAnalyze();
    long analyzed = analyzeCount();
    enqueue("burst", 4_000);

    awaitStat("analyze_count", count -> count > analyzed);

    assertThat(plannedPending()).isGreaterThan(2_000);
  }

  @Test
  void aTableWhosePendingJobsAllFinishedIsAnalyzed() throws Exception {
    long analyzed = analyzeCount();
    // Direct updates are only for the table's shape; the store never writes like this.
    execute("UPDATE jobs SET state = 'SUCCEEDED', finished_at = updated_at");

    awaitStat("analyze_count", count -> count > analyzed);

    assertThat(plannedPending()).isLessThan(100);
  }

  @Test
  void aTableWhosePendingJobsThePlannerCountsWellIsNotAnalyzedHoweverMuchItChanged()
      throws Exception {
    long analyzed = analyzeCount();
    // Half the table: past the 900 changes that ask for a count, and short of leaving a dead
    // version of every row, which the planner's estimate (scaled by the table's pages) would count
    // twice.
    execute("UPDATE jobs SET priority = priority + 1 WHERE id % 2 = 0");
    awaitStat("n_mod_since_analyze", changed -> changed >= 2_000);
    assertThat(plannedPending())
        .as("the estimate, against 4,000 pending")
        .isBetween(3_000L, 7_000L);
    PlannerStatistics statistics = new PlannerStatistics(store.transactions());

    assertThat(statistics.runOnce()).isEqualTo(Turn.ESTIMATE_HELD);
    assertThat(statistics.runOnce()).as("counted again before more changed").isEqualTo(FEW_CHANGES);
    assertThat(analyzeCount()).isEqualTo(analyzed);
  }

  @Test
  void aTableThatBarelyChangedIsNotAnalyzedAgain() throws Exception {
    long analyzed = analyzeCount();
    enqueue("known", 20);
    awaitStat("n_mod_since_analyze", changed -> changed >= 20);

    assertThat(new PlannerStatistics(store.transactions()).runOnce()).isEqualTo(FEW_CHANGES);
    assertThat(analyzeCount()).isEqualTo(analyzed);
  }

  @Test
  void aFailingTurnIsLoggedOnceUntilATurnWorksAgain() throws Exception {
    store.close(); // its own timer would log too
    Logger logger = (Logger) LoggerFactory.getLogger(PlannerStatistics.class);
    ListAppender<ILoggingEvent> captured = new ListAppender<>();
    captured.start();
    logger.addAppender(captured);
    try (PooledTransactions db =
        PooledTransactions.open(options, new ListenerCensus(options.schema()), queues -> {})) {
      PlannerStatistics statistics = new PlannerStatistics(db);
      execute("ALTER TABLE jobs RENAME TO jobs_away");
      try {
        statistics.runScheduled();
        statistics.runScheduled();
        statistics.runScheduled();
      } finally {
        execute("ALTER TABLE jobs_away RENAME TO jobs");
      }
      statistics.runScheduled();
      statistics.runScheduled();
    } finally {
      logger.detachAppender(captured);
    }

    assertThat(captured.list)
        .extracting(event -> event.getLevel().toString())
        .containsExactly("WARN", "INFO");
    assertThat(captured.list.get(1).getFormattedMessage()).contains("works again");
  }

  /** Every job finished, and the table analyzed so: the planner expects no pending job. */
  private void finishEveryJobAndAnalyze() throws SQLException {
    // Direct updates are only for the table's shape; the store never writes like this.
    execute("UPDATE jobs SET state = 'SUCCEEDED', finished_at = updated_at");
    execute("ANALYZE jobs");
  }

  /** How many pending jobs the planner expects, from the statistics of the last analyze. */
  private long plannedPending() throws SQLException {
    try (Connection connection = postgres.connect(options)) {
      Matcher rows =
          PLANNED_ROWS.matcher(
              PlanText.explain(connection, "SELECT 1 FROM jobs WHERE state = 'PENDING'"));
      assertThat(rows.find()).isTrue();
      return Long.parseLong(rows.group(1));
    }
  }

  private String leasePlan() throws SQLException {
    try (Connection connection = postgres.connect(options)) {
      return PlanText.explainLease(connection);
    }
  }

  private long analyzeCount() throws SQLException {
    return stat("analyze_count");
  }

  private long stat(String column) throws SQLException {
    try (Connection connection = postgres.connect(options);
        Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SELECT " + column + " FROM pg_stat_user_tables WHERE relid = 'jobs'::regclass")) {
      row.next();
      return row.getLong(1);
    }
  }

  /** Waits for the jobs table's statistic to pass the test; the server counts with a delay. */
  private void awaitStat(String column, LongPredicate passes) {
    await().alias(column).atMost(Duration.ofSeconds(45)).until(() -> passes.test(stat(column)));
  }

  private void enqueue(String queue, int count) {
    for (int done = 0; done < count; done += 1_000) {
      List<NewJob> jobs = new ArrayList<>();
      for (int i = done; i < Math.min(count, done + 1_000); i++) {
        jobs.add(job("t").queue(queue).build());
      }
      store.enqueue(jobs, T0);
    }
  }

  private void execute(String sql) throws SQLException {
    postgres.execute(options, sql);
  }
}
