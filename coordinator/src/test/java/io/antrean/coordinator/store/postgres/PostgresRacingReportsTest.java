package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseLostException;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Workers' reports racing another transaction that holds a job's row lock.
 *
 * <p>A stale worker's rejected report against a job another transaction is deleting: the attempts
 * table has no foreign key to jobs (migration V17), so the rejection's history row locks the job's
 * key itself and is written only if the job is still there once that lock is granted.
 *
 * <p>A CompleteBatch item for a job others depend on is judged again under the job's row lock. Two
 * calls carrying the same report at once (a worker sent it again after losing the answer) both read
 * the job RUNNING before either locks it; the one that locks it second finds it completed by the
 * first with this very report, and answers it as a repeat, which the coordinator reports to nobody
 * a second time. A job deleted while the item waited answers NOT_FOUND, and the batch's other items
 * stand.
 */
class PostgresRacingReportsTest {
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

  @Test
  @Timeout(60)
  void theSecondOfTwoRacingBatchesWithTheSameReportAnswersARepeat() throws Exception {
    Job leased = leasedWithADependent();
    List<Completion> report = reportOf(leased);

    List<CompletableFuture<List<CompletionOutcome>>> batches;
    try (Connection holding = postgres.connect(options);
        Connection watching = postgres.connect(options)) {
      holding.setAutoCommit(false);
      try (Statement lock = holding.createStatement()) {
        lock.executeQuery("SELECT id FROM jobs WHERE id = " + leased.id() + " FOR UPDATE").close();
      }
      batches =
          List.of(
              CompletableFuture.supplyAsync(() -> store.completeAll("w", report, at(1))),
              CompletableFuture.supplyAsync(() -> store.completeAll("w", report, at(2))));
      LockWaits.await(watching, 2, batches);
      holding.rollback();
    }

    List<CompletionOutcome> outcomes =
        batches.stream().map(b -> b.orTimeout(30, TimeUnit.SECONDS).join().get(0)).toList();
    assertThat(outcomes)
        .extracting(CompletionOutcome::status, CompletionOutcome::queue, CompletionOutcome::repeat)
        .containsExactlyInAnyOrder(
            tuple(CompletionOutcome.Status.COMPLETED, leased.queue(), false),
            tuple(CompletionOutcome.Status.COMPLETED, leased.queue(), true));
    Job done = store.get(leased.id()).orElseThrow();
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.result()).isEqualTo(utf8("done"));
  }

  @Test
  @Timeout(60)
  void aBatchItemWhoseJobIsDeletedWhileItWaitsForTheLockAnswersNotFound() throws Exception {
    Job leased = leasedWithADependent();
    List<Completion> report = reportOf(leased);

    CompletableFuture<List<CompletionOutcome>> batch;
    try (Connection deleting = postgres.connect(options);
        Connection watching = postgres.connect(options)) {
      deleting.setAutoCommit(false);
      try (Statement lock = deleting.createStatement()) {
        lock.executeQuery("SELECT id FROM jobs WHERE id = " + leased.id() + " FOR UPDATE").close();
        batch = CompletableFuture.supplyAsync(() -> store.completeAll("w", report, at(1)));
        LockWaits.await(watching, 1, List.of(batch));
        lock.executeUpdate("DELETE FROM jobs WHERE id = " + leased.id());
      }
      deleting.commit();
    }

    assertThat(batch.orTimeout(30, TimeUnit.SECONDS).join())
        .containsExactly(CompletionOutcome.notFound(leased.id()));
  }

  /** A job another one depends on, leased by worker "w". */
  private Job leasedWithADependent() {
    Job first = store.enqueue(List.of(job("fetch").build()), T0).get(0).job();
    store.enqueue(List.of(job("merge").dependsOn(first.id()).build()), T0);
    Job leased = store.lease(spec("w", 1, at(30)), T0).get(0);
    assertThat(leased.id()).isEqualTo(first.id());
    return leased;
  }

  private static List<Completion> reportOf(Job leased) {
    return List.of(new Completion(leased.id(), LeaseClaim.of(leased), utf8("done"), "text/plain"));
  }
}
