package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.jdbc.DeadLetterQueue;
import io.antrean.coordinator.store.jdbc.JobRows;
import io.antrean.coordinator.store.jdbc.LeaseWrites;
import io.antrean.coordinator.store.jdbc.RetentionWrites;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plans SQLite makes for the store's busiest and growing queries, each of which must walk an
 * index rather than scan or sort, and the few chunk sizes that batch writes come in.
 */
class SqliteQueryPlanTest extends SqliteStoreFixture {
  @Test
  void leaseQueryWalksThePendingIndexWithoutSorting() throws SQLException {
    for (int types : new int[] {0, 2}) {
      String plan = query("EXPLAIN QUERY PLAN " + SqliteDialect.pickSql(types));

      assertThat(plan).contains("INDEX jobs_pending (queue=?)").doesNotContain("TEMP B-TREE");
    }
  }

  @Test
  void batchWritesFindEachRowByItsKeyWithoutScanning() throws SQLException {
    for (int jobs = 1; jobs <= ChunkedStatement.MAX_CHUNK; jobs *= 2) {
      assertThat(query("EXPLAIN QUERY PLAN " + BatchWrites.grantSql(jobs)))
          .contains("SEARCH jobs USING INTEGER PRIMARY KEY (rowid=?)")
          .doesNotContain("SCAN jobs");
      assertThat(query("EXPLAIN QUERY PLAN " + BatchWrites.succeedSql(jobs, JobRows.ID_AND_QUEUE)))
          .contains("SEARCH jobs USING INTEGER PRIMARY KEY (rowid=?)")
          .doesNotContain("SCAN jobs");
      assertThat(query("EXPLAIN QUERY PLAN " + BatchWrites.endAttemptsSql(jobs)))
          .contains("SEARCH attempts USING INDEX attempts_job (job_id=? AND fencing_token=?)")
          .doesNotContain("SCAN attempts");
    }
  }

  @Test
  void batchWritesCutAListIntoFewChunksOfFewSizes() {
    assertThat(ChunkedStatement.chunks(0)).isEmpty();
    assertThat(ChunkedStatement.chunks(1)).containsExactly(1);
    assertThat(ChunkedStatement.chunks(10)).containsExactly(8, 2);
    assertThat(ChunkedStatement.chunks(64)).containsExactly(64);
    assertThat(ChunkedStatement.chunks(100)).containsExactly(64, 32, 4);
    assertThat(ChunkedStatement.chunks(1000))
        .containsExactly(64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 32, 8);
    for (int count = 0; count <= 300; count++) {
      assertThat(ChunkedStatement.chunks(count).stream().mapToInt(Integer::intValue).sum())
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
}
