package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.antrean.coordinator.job.NewJob;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * The store keeps the planner's statistics of the jobs table current ({@link PlannerStatistics}):
 * after a burst into a table whose last ANALYZE saw no pending job, a lease plans to read and sort
 * every pending job of the queue, until the store analyzes the table; then it walks {@code
 * jobs_pending}. The plan is the one {@code lease_jobs} keeps, which an ANALYZE makes again.
 */
@Timeout(60)
class PostgresPlannerStatisticsTest {
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
  void aBurstIntoATableAnalyzedWithNoPendingJobIsAnalyzedThenLeasedInIndexOrder() throws Exception {
    // Direct updates are only for the table's shape; the store never writes like this.
    execute("UPDATE jobs SET state = 'SUCCEEDED', finished_at = updated_at");
    execute("ANALYZE jobs");
    long analyzed = analyzeCount();
    enqueue("burst", 4_000);
    assertThat(leasePlan()).contains("Sort").doesNotContain("Index Scan using jobs_pending");

    awaitStat("analyze_count", count -> count > analyzed);

    assertThat(leasePlan()).contains("Index Scan using jobs_pending").doesNotContain("Sort");
  }

  @Test
  void aTableThatBarelyChangedIsNotAnalyzedAgain() throws Exception {
    long analyzed = analyzeCount();
    enqueue("known", 20);
    awaitStat("n_mod_since_analyze", changed -> changed >= 20);

    assertThat(new PlannerStatistics(store.transactions()).runOnce()).isFalse();
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
