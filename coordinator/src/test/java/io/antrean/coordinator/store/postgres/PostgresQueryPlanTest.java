package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.jdbc.DeadLetterQueue;
import io.antrean.coordinator.store.jdbc.LeaseWrites;
import io.antrean.coordinator.store.jdbc.RetentionWrites;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The plans PostgreSQL picks for the store's statements over a backlog like a busy installation's
 * (20,000 jobs: half finished, a tenth of those dead, the rest pending in several queues, some
 * running): each walks its index in order and stops early, without sorting the backlog.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresQueryPlanTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private PostgresOptions options;
  private PostgresJobStore store;

  @BeforeAll
  void fillABacklog() throws SQLException {
    options = postgres.freshSchema();
    store = PostgresJobStore.open(options);
    for (int batch = 0; batch < 20; batch++) {
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        String queue = i % 4 == 0 ? "default" : "other-" + (i % 7);
        var builder = job("t" + (i % 5)).queue(queue).priority(i % 3).runAt(at(i % 60));
        if (i % 10 == 1) {
          builder.key("key-" + batch + "-" + i, at(3600 + i));
        }
        jobs.add(builder.build());
      }
      store.enqueue(jobs, T0);
    }
    store.lease(new LeaseSpec("w", "other-1", Set.of(), 500, at(30)), at(60));
    try (Connection connection = postgres.connect(options);
        Statement statement = connection.createStatement()) {
      // Direct updates are only for the backlog's shape; the store never writes like this.
      statement.execute(
          "UPDATE jobs SET state = CASE WHEN id % 20 = 0 THEN 'FAILED' ELSE 'SUCCEEDED' END,"
              + " finished_at = TIMESTAMPTZ '2026-03-01 12:00:00Z' + id * INTERVAL '1 second',"
              + " last_error = 'boom', last_error_folded = 'boom'"
              + " WHERE id % 2 = 0 AND state = 'PENDING' AND queue <> 'default'");
      statement.execute("ANALYZE");
    }
  }

  @AfterAll
  void closeStore() {
    store.close();
  }

  /** The plan of the statement with its parameters bound, as text. */
  private String explain(String sql, Object... parameters) throws SQLException {
    try (Connection connection = postgres.connect(options)) {
      return PlanText.explain(connection, sql, parameters);
    }
  }

  private static OffsetDateTime time(long secondsAfterT0) {
    return at(secondsAfterT0).atOffset(ZoneOffset.UTC);
  }

  @Test
  void leaseWalksThePendingIndexInOrderWithoutSorting() throws SQLException {
    String plan;
    try (Connection connection = postgres.connect(options)) {
      plan = PlanText.explainLease(connection);
    }

    assertThat(plan).contains("Index Scan using jobs_pending").doesNotContain("Sort");
  }

  @Test
  void leaseKeepsOnePlanThatNeedsNoSortInsteadOfPlanningEachCall() throws SQLException {
    try (Connection connection = postgres.connect(options)) {
      Array settings = (Array) PlanText.leaseFunction(connection, "proconfig");
      assertThat((String[]) settings.getArray())
          .containsExactlyInAnyOrder("plan_cache_mode=force_generic_plan", "enable_sort=off");
    }
  }

  @Test
  void unfinishedCountsWalkTheirIndexWhateverTheEstimate() throws SQLException {
    String plan;
    try (Connection connection = postgres.connect(options)) {
      Array settings = (Array) PlanText.function(connection, "unfinished_counts", 2, "proconfig");
      assertThat((String[]) settings.getArray())
          .containsExactlyInAnyOrder("enable_bitmapscan=off", "enable_seqscan=off");
      // Every job of "default" is unfinished: a bitmap or sequential scan would look cheaper.
      plan = PlanText.explainUnfinishedCounts(connection, "default");
    }

    assertThat(plan).contains("Index Only Scan using jobs_queue_state").doesNotContain("Bitmap");
  }

  @Test
  void aBatchOfCompletionsScansItsItemsOnceInItsGenericPlan() throws SQLException {
    String plan;
    try (Connection connection = postgres.connect(options)) {
      plan = PlanText.explainGeneric(connection, PostgresDialect.SUCCEED_ALL);
    }

    // The items are read to find the held jobs; the UPDATE takes the results from the held rows.
    // Joined to the items again, the generic plan scanned every item once for each held job.
    String update = plan.substring(plan.indexOf("CTE done"), plan.indexOf("CTE ended"));
    assertThat(update).as(plan).contains("CTE Scan on held").doesNotContain("item");
  }

  @Test
  void sweepWalksTheRunningIndexWithoutSorting() throws SQLException {
    String plan = explain(LeaseWrites.selectExpiredSql(PostgresDialect.INSTANCE), time(31), 100);

    assertThat(plan).contains("jobs_running_expiry").doesNotContain("Sort");
  }

  @Test
  void deadLetterListingReadsOnlyDeadLettersThroughTheirIndexes() throws SQLException {
    List<DeadLetterQuery> queries =
        List.of(
            new DeadLetterQuery(null, null, null, null, null, null, 50),
            new DeadLetterQuery(null, null, "BOOM", null, null, 15_000L, 50),
            new DeadLetterQuery("other-1", "t1", null, null, null, 15_000L, 50));
    for (DeadLetterQuery query : queries) {
      List<Object> parameters = new ArrayList<>();
      String sql = DeadLetterQueue.listSql(PostgresDialect.INSTANCE, query, parameters);
      Object[] bound =
          parameters.stream()
              .map(p -> p instanceof Instant instant ? instant.atOffset(ZoneOffset.UTC) : p)
              .toArray();

      assertThat(explain(sql, bound))
          .as("plan for %s", query)
          .containsPattern("(using|on) jobs_dead_letters")
          .doesNotContain("Seq Scan");
    }
  }

  @Test
  void retentionAndGrowthQueriesWalkTheirIndexes() throws SQLException {
    // Small answers may be sorted after the index picked them; the backlog is never scanned.
    assertThat(
            explain(
                RetentionWrites.deleteFinishedSql(PostgresDialect.INSTANCE),
                "SUCCEEDED",
                time(600),
                100))
        .contains("using jobs_finished")
        .doesNotContain("Seq Scan on jobs");
    assertThat(explain(RetentionWrites.forgetKeysSql(PostgresDialect.INSTANCE), time(3700), 100))
        .contains("on idempotency_keys_expiry");
    assertThat(explain(DeadLetterQueue.groupsSinceSql(PostgresDialect.INSTANCE), time(19_000)))
        .contains("jobs_finished")
        .doesNotContain("Seq Scan on jobs");
  }
}
