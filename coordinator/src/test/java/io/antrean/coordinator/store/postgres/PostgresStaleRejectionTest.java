package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseLostException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stale worker's rejected report against a job another transaction is deleting: the attempts
 * table has no foreign key to jobs (migration V17), so the rejection's history row locks the job's
 * key itself and is written only if the job is still there once that lock is granted.
 */
class PostgresStaleRejectionTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private PostgresOptions options;
  private PostgresJobStore store;

  @BeforeEach
  void openStore() {
    options = postgres.freshSchema();
    store = PostgresJobStore.open(options);
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  @Timeout(60)
  void aRejectionWaitsForTheJobsDeletionAndLeavesNoHistoryRowBehind() throws Exception {
    Job job = store.enqueue(List.of(job("email").build()), T0).get(0).job();
    Job stale = store.lease(spec("worker-a", 1, at(30)), T0).get(0);
    assertThat(store.expireLeases(at(31), 10)).hasSize(1);
    assertThat(store.lease(spec("worker-b", 1, at(60)), at(31))).hasSize(1);

    try (Connection deleting = postgres.connect(options);
        Connection watching = postgres.connect(options)) {
      deleting.setAutoCommit(false);
      try (Statement delete = deleting.createStatement()) {
        assertThat(delete.executeUpdate("DELETE FROM jobs WHERE id = " + job.id())).isEqualTo(1);
      }
      CompletableFuture<Job> report =
          CompletableFuture.supplyAsync(
              () ->
                  store.complete(
                      job.id(), LeaseClaim.of(stale), "worker-a", utf8("late"), null, at(40)));
      awaitALockWaitOn(pid(deleting), watching, report);
      deleting.commit();

      assertThat(report)
          .failsWithin(Duration.ofSeconds(30))
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(LeaseLostException.class);
      assertThat(count(watching, "SELECT count(*) FROM attempts WHERE job_id = " + job.id()))
          .as("history rows of the deleted job")
          .isZero();
    }
  }

  /**
   * Polls until a session waits for a lock the session {@code blocker} holds, or the report ends.
   */
  private static void awaitALockWaitOn(
      long blocker, Connection watching, CompletableFuture<?> report) throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String waiting =
        "SELECT count(*) FROM pg_stat_activity WHERE " + blocker + " = ANY (pg_blocking_pids(pid))";
    while (count(watching, waiting) == 0) {
      if (report.isDone()) {
        throw new AssertionError("the report ended without waiting: " + outcome(report));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no session waited for the deleting transaction's lock");
      }
      Thread.yield();
    }
  }

  private static String outcome(CompletableFuture<?> report) {
    try {
      return String.valueOf(report.join());
    } catch (CompletionException e) {
      return String.valueOf(e.getCause());
    }
  }

  private static long pid(Connection connection) throws SQLException {
    return count(connection, "SELECT pg_backend_pid()");
  }

  private static long count(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getLong(1);
    }
  }
}
