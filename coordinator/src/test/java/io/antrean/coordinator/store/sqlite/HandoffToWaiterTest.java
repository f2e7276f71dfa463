package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.core.EnqueueCommand;
import io.antrean.coordinator.core.JitteredBackoff;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.LeaseCommand;
import io.antrean.coordinator.core.MutableClock;
import io.antrean.coordinator.core.RetryOverride;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.TestJobs;
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
 * On SQLite a job ready at once reaches a waiting worker in the commit that stores it: the
 * scheduler submits the waiter's lease behind the Enqueue, into the same group commit. Counted on
 * the store's writer, so this lives beside it.
 */
@Timeout(30)
class HandoffToWaiterTest {
  private static final String QUEUE = "q";
  private static final byte[] JSON = "{}".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T10:00:00Z"));
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  // One thread, so a task given to it after an announcement runs after the pass it started.
  private final ExecutorService dispatch = Executors.newSingleThreadExecutor();
  private SqliteJobStore store;
  private JobScheduler scheduler;

  @BeforeEach
  void start() {
    store = SqliteJobStore.open(dir, SqliteOptions.defaults());
    scheduler =
        new JobScheduler(
            store, Settings.defaults(), clock, new JitteredBackoff(() -> 0.5), timers, dispatch);
  }

  @AfterEach
  void stop() throws InterruptedException {
    timers.shutdownNow();
    dispatch.shutdownNow();
    assertThat(dispatch.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    store.close();
  }

  /** A Lease call waiting for jobs of these types (any, if none), after its first look is done. */
  private CompletableFuture<List<Job>> waitingWorker(String... types) {
    return waitingWorker(1, types);
  }

  /** {@link #waitingWorker(String...)} for up to {@code maxJobs} jobs. */
  private CompletableFuture<List<Job>> waitingWorker(int maxJobs, String... types) {
    long commitsBefore = store.writer().groupCommit().commits();
    CompletableFuture<List<Job>> waiting =
        scheduler.lease(
            new LeaseCommand("w", QUEUE, List.of(types), maxJobs, null, Duration.ofSeconds(20)));
    // Its first look found nothing (one commit); from then on only a signal or a handoff serves it.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> store.writer().groupCommit().commits() > commitsBefore);
    assertThat(waiting).isNotDone();
    return waiting;
  }

  @Test
  void aReadyJobIsStoredAndLeasedToTheWaitingWorkerInOneCommit() throws Exception {
    // A waiter's first look ends (unclaims it) just after its commit is counted, so an Enqueue
    // sent in between finds it still claimed and leaves it to the announcement, in a second
    // commit. Each round is a fresh waiter and job; without the handoff no round is a single
    // commit.
    for (int round = 1; round <= 5; round++) {
      CompletableFuture<List<Job>> waiting = waitingWorker();
      long commitsBefore = store.writer().groupCommit().commits();

      EnqueueResult stored =
          scheduler.enqueueAsync(EnqueueCommand.of(QUEUE, "t", JSON)).get(10, TimeUnit.SECONDS);
      List<Job> leased = waiting.get(10, TimeUnit.SECONDS);
      long commits = store.writer().groupCommit().commits() - commitsBefore; // before any read

      assertThat(leased).extracting(Job::id).containsExactly(stored.job().id());
      Job running = scheduler.get(stored.job().id());
      assertThat(running.state()).isEqualTo(JobState.RUNNING);
      assertThat(running.lease().workerId()).isEqualTo("w");
      assertThat(running.lease().fencingToken()).isEqualTo(leased.get(0).lease().fencingToken());
      if (commits == 1) {
        return;
      }
    }
    fail("no round stored the job and leased it to the waiting worker in one commit");
  }

  @Test
  void aJobHandedToOneWaiterCostsTheOtherWaitersNoLease() throws Exception {
    // As above, an Enqueue that comes while a waiter's first look is still ending may be left to
    // the announcement; each round is two fresh waiters and a job, and one round must show it.
    for (int round = 1; round <= 5; round++) {
      // Of other types each, so that each makes its first look (one that took every ready job of
      // its types spares a later waiter of the same types that look).
      CompletableFuture<List<Job>> first = waitingWorker(5, "t");
      CompletableFuture<List<Job>> second = waitingWorker(5, "t", "x");
      long operationsBefore = store.writer().groupCommit().operations();

      EnqueueResult stored =
          scheduler.enqueueAsync(EnqueueCommand.of(QUEUE, "t", JSON)).get(10, TimeUnit.SECONDS);
      // A pass the Enqueue's announcement started has run (one dispatch thread), and a lease it
      // submitted is written (the writer keeps submission order) before this probe is.
      dispatch.submit(() -> {}).get(10, TimeUnit.SECONDS);
      store.enqueue(List.of(TestJobs.job("t").queue("probe").build()), clock.instant());

      CompletableFuture.anyOf(first, second).get(10, TimeUnit.SECONDS);
      CompletableFuture<List<Job>> served = first.isDone() ? first : second;
      CompletableFuture<List<Job>> other = served == first ? second : first;
      assertThat(served.join()).extracting(Job::id).containsExactly(stored.job().id());
      assertThat(other).isNotDone();
      other.cancel(false);
      // The Enqueue, the lease behind it and the probe: none for the other waiter, which asked
      // for five jobs and would have found none.
      if (store.writer().groupCommit().operations() - operationsBefore == 3) {
        return;
      }
    }
    fail("in no round was the other waiter spared a lease");
  }

  @Test
  void aWaiterForOtherTypesIsLeftWaitingAndTheJobPending() throws Exception {
    CompletableFuture<List<Job>> waiting = waitingWorker("other");

    EnqueueResult stored =
        scheduler.enqueueAsync(EnqueueCommand.of(QUEUE, "t", JSON)).get(10, TimeUnit.SECONDS);

    // Announcing the job serves the waiter once more (a lease that finds nothing of its types).
    assertThat(scheduler.get(stored.job().id()).state()).isEqualTo(JobState.PENDING);
    assertThat(waiting).isNotDone();
    waiting.cancel(false);
  }

  @Test
  void aJobDueLaterIsNotHandedOver() throws Exception {
    CompletableFuture<List<Job>> waiting = waitingWorker();
    long commitsBefore = store.writer().groupCommit().commits();
    EnqueueCommand later =
        new EnqueueCommand(
            QUEUE, "t", JSON, "", 0, null, Duration.ofMinutes(5), "", RetryOverride.NONE, "");

    EnqueueResult stored = scheduler.enqueueAsync(later).get(10, TimeUnit.SECONDS);

    assertThat(store.writer().groupCommit().commits() - commitsBefore).isEqualTo(1);
    assertThat(scheduler.get(stored.job().id()).state()).isEqualTo(JobState.PENDING);
    assertThat(waiting).isNotDone();
    waiting.cancel(false);
  }
}
