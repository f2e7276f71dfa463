package io.antrean.coordinator.core;

import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.postgres.PostgresJobStore;
import io.antrean.coordinator.store.postgres.TestPostgres;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lease of a CompleteBatch sees the batch's items, on both stores: each commits it behind the
 * items in one change (SQLite's group commit, PostgreSQL's transaction). A queue limited to one
 * running job shows it: the lease can only take the next job if the finished one no longer counts.
 */
@Timeout(60)
class CompleteThenLeaseOrderTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T10:00:00Z"));
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService dispatch = Executors.newFixedThreadPool(2);
  private JobStore store;

  @AfterEach
  void close() throws Exception {
    timers.shutdownNow();
    dispatch.shutdownNow();
    timers.awaitTermination(5, TimeUnit.SECONDS);
    dispatch.awaitTermination(5, TimeUnit.SECONDS);
    if (store != null) {
      store.close();
    }
  }

  @Test
  void onSqliteTheLeaseTakesTheSlotTheItemsFreed() {
    store = SqliteJobStore.open(dir, SqliteOptions.defaults());
    assertThat(store.commitsTogether()).isTrue();
    theLeaseTakesTheSlotTheItemsFreed();
  }

  @Test
  void onPostgresTheLeaseTakesTheSlotTheItemsFreed() {
    store = PostgresJobStore.open(postgres.freshSchema());
    assertThat(store.commitsTogether()).isTrue();
    theLeaseTakesTheSlotTheItemsFreed();
  }

  private void theLeaseTakesTheSlotTheItemsFreed() {
    JobScheduler scheduler =
        new JobScheduler(
            store, Settings.defaults(), clock, new JitteredBackoff(() -> 0.5), timers, dispatch);
    store.setQueueLimits(QUEUE, new QueueLimits(1, null, null, null));
    store.enqueue(List.of(job("t").build(), job("t").build()), clock.instant());
    Job running = scheduler.lease(command("w", Duration.ZERO)).join().get(0);
    assertThat(scheduler.lease(command("w", Duration.ZERO)).join())
        .as("the queue's one running slot is taken")
        .isEmpty();

    CompletionsAndLeases answer =
        scheduler
            .completeAllThenLease(
                "w",
                List.of(new Completion(running.id(), LeaseClaim.of(running), null, null)),
                command("", null))
            .join();

    assertThat(answer.outcomes())
        .extracting(CompletionOutcome::status)
        .containsExactly(CompletionOutcome.Status.COMPLETED);
    assertThat(answer.leased()).hasSize(1);
    Job next = answer.leased().get(0);
    assertThat(next.id()).isNotEqualTo(running.id());
    assertThat(scheduler.get(running.id()).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(scheduler.get(next.id()).state()).isEqualTo(JobState.RUNNING);
    assertThat(scheduler.get(next.id()).lease().workerId()).isEqualTo("w");
  }

  private static LeaseCommand command(String workerId, Duration wait) {
    return new LeaseCommand(workerId, QUEUE, List.of(), 1, null, wait);
  }
}
