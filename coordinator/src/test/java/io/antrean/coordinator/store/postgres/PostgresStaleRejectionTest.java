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
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
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
      LockWaits.await(watching, 1, List.of(report));
      deleting.commit();

      assertThat(report)
          .failsWithin(Duration.ofSeconds(30))
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(LeaseLostException.class);
      assertThat(
              LockWaits.single(
                  watching, "SELECT count(*) FROM attempts WHERE job_id = " + job.id()))
          .as("history rows of the deleted job")
          .isZero();
    }
  }
}
