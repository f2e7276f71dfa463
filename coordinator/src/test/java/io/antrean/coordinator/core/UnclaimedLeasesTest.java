package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.StoreFutures;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs leased for an answer no worker will read go back to PENDING at once, spending no attempt and
 * no lease expiry; a job whose lease has already ended stays as it ended.
 */
@Timeout(30)
class UnclaimedLeasesTest {
  private static final byte[] JSON = "{}".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-06T12:00:00Z"));
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService dispatch = Executors.newSingleThreadExecutor();
  private JobStore store;
  private JobScheduler scheduler;

  @BeforeEach
  void start() {
    store = SqliteJobStore.open(dir, SqliteOptions.defaults());
    scheduler =
        new JobScheduler(
            store, Settings.defaults(), clock, new JitteredBackoff(() -> 0.5), timers, dispatch);
  }

  @AfterEach
  void stop() {
    timers.shutdownNow();
    dispatch.shutdownNow();
    store.close();
  }

  private long enqueue() {
    return StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "t", JSON))).job().id();
  }

  private CompletableFuture<List<Job>> leaseAll() {
    return scheduler.lease(
        new LeaseCommand("w1", "", List.of(), 10, Duration.ofSeconds(30), Duration.ZERO));
  }

  /** Waits for the dispatch executor to run what was handed to it before this call. */
  private void awaitDispatch() throws Exception {
    dispatch.submit(() -> {}).get(10, TimeUnit.SECONDS);
  }

  @Test
  void jobsLeasedForALeaseCancelledMeanwhileArePendingAgainWithNothingSpent() throws Exception {
    long id = enqueue();
    CompletableFuture<List<Job>> leasing = new CompletableFuture<>();
    CompletableFuture<List<Job>> answer = scheduler.unclaimedLeases().givenBackIfCancelled(leasing);

    assertThat(answer.cancel(false)).isTrue();
    // The store's lease commits after the caller went away.
    leasing.complete(leaseAll().get(10, TimeUnit.SECONDS));
    awaitDispatch();

    Job back = scheduler.get(id);
    assertThat(back.state()).isEqualTo(JobState.PENDING);
    assertThat(back.leaseExpiries()).isZero();
    assertThat(back.handlerAttempts()).isZero();
    assertThat(back.history())
        .extracting(a -> a.outcome())
        .containsExactly(AttemptOutcome.RELEASED);
    assertThat(leaseAll().get(10, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(id);
  }

  @Test
  void aLeaseNotCancelledKeepsItsJobs() throws Exception {
    long id = enqueue();
    CompletableFuture<List<Job>> leasing = new CompletableFuture<>();
    CompletableFuture<List<Job>> answer = scheduler.unclaimedLeases().givenBackIfCancelled(leasing);

    leasing.complete(leaseAll().get(10, TimeUnit.SECONDS));
    awaitDispatch();

    assertThat(answer.get()).extracting(Job::id).containsExactly(id);
    assertThat(scheduler.get(id).state()).isEqualTo(JobState.RUNNING);
  }

  @Test
  void anAnswerHandedBackAfterItsJobFinishedLeavesItFinished() throws Exception {
    long id = enqueue();
    Job leased = leaseAll().get(10, TimeUnit.SECONDS).get(0);
    scheduler
        .completeAsync(id, LeaseClaim.of(leased), "w1", JSON, "application/json")
        .get(10, TimeUnit.SECONDS);

    scheduler.unclaimedLeases().giveBack(List.of(leased));
    awaitDispatch();

    Job done = scheduler.get(id);
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.result()).isEqualTo(JSON);
    // Refused as any report on a lease that ended is, and recorded as such.
    assertThat(done.history())
        .extracting(a -> a.outcome())
        .containsExactly(AttemptOutcome.SUCCEEDED, AttemptOutcome.STALE_COMPLETION_REJECTED);
  }
}
