package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.antrean.coordinator.core.CompletionsAndLeases;
import io.antrean.coordinator.core.EnqueueCommand;
import io.antrean.coordinator.core.JitteredBackoff;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.LeaseCommand;
import io.antrean.coordinator.core.MutableClock;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.Concurrently;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On PostgreSQL, too, a job ready at once reaches a waiting worker in the transaction that stores
 * it, and a worker's completions and the lease that refills its slots share one: the store keeps
 * the writes made inside {@link PostgresJobStore#writeTogether} for one transaction ({@link
 * WritesTogether}). Counted in the store's units of work (the timer that keeps the planner's
 * statistics adds one now and then, so the counting tests take a few rounds).
 */
@Timeout(60)
class PostgresWritesTogetherTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();
  private static final String QUEUE = "q";
  private static final byte[] JSON = "{}".getBytes(StandardCharsets.UTF_8);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T10:00:00Z"));
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  // One thread, so a task given to it after an announcement runs after the pass it started.
  private final ExecutorService dispatch = Executors.newSingleThreadExecutor();
  private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
  private PostgresOptions options;
  private PostgresJobStore store;
  private JobScheduler scheduler;

  @BeforeEach
  void start() throws InterruptedException {
    options = postgres.freshSchema();
    store = PostgresJobStore.open(options);
    scheduler =
        new JobScheduler(
            store, Settings.defaults(), clock, new JitteredBackoff(() -> 0.5), timers, dispatch);
    store.subscribeJobsReady(heard::add);
    // A NOTIFY sent before the LISTEN is in place is not heard, and the probe must be.
    assertThat(store.awaitListening(Duration.ofSeconds(20))).as("listening").isTrue();
  }

  @AfterEach
  void stop() throws InterruptedException {
    timers.shutdownNow();
    dispatch.shutdownNow();
    assertThat(dispatch.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    store.close();
  }

  private long units() {
    return store.transactions().units();
  }

  /** A Lease call waiting for up to {@code maxJobs} jobs of these types, its first look done. */
  private CompletableFuture<List<Job>> waitingWorker(int maxJobs, String... types) {
    CompletableFuture<List<Job>> waiting =
        scheduler.lease(
            new LeaseCommand("w", QUEUE, List.of(types), maxJobs, null, Duration.ofSeconds(30)));
    // The first look (when there is one: after a lease that took every ready job of these types,
    // none) runs on this thread and finds nothing; from then on only a signal or a handoff serves
    // it.
    assertThat(waiting).isNotDone();
    return waiting;
  }

  @Test
  void aReadyJobIsStoredAndLeasedToTheWaitingWorkerInOneTransaction() throws Exception {
    for (int round = 1; round <= 5; round++) {
      CompletableFuture<List<Job>> waiting = waitingWorker(1);
      long unitsBefore = units();

      EnqueueResult stored =
          scheduler.enqueueAsync(EnqueueCommand.of(QUEUE, "t", JSON)).get(10, TimeUnit.SECONDS);
      // Answered in that transaction, before the Enqueue's own answer.
      assertThat(waiting).isDone();
      List<Job> leased = waiting.join();

      assertThat(leased).extracting(Job::id).containsExactly(stored.job().id());
      Job running = scheduler.get(stored.job().id());
      assertThat(running.state()).isEqualTo(JobState.RUNNING);
      assertThat(running.lease().workerId()).isEqualTo("w");
      assertThat(running.lease().fencingToken()).isEqualTo(leased.get(0).lease().fencingToken());
      // The Enqueue and the lease, and the read just above.
      if (units() - unitsBefore == 2) {
        return;
      }
    }
    fail("no round stored the job and leased it to the waiting worker in one transaction");
  }

  @Test
  void aJobHandedToOneWaiterCostsTheOtherWaitersNoLeaseNorAnAnnouncement() throws Exception {
    for (int round = 1; round <= 5; round++) {
      // Of other types each, so that each makes its first look.
      CompletableFuture<List<Job>> first = waitingWorker(5, "t");
      CompletableFuture<List<Job>> second = waitingWorker(5, "t", "x");
      heard.clear();
      long unitsBefore = units();

      EnqueueResult stored =
          scheduler.enqueueAsync(EnqueueCommand.of(QUEUE, "t", JSON)).get(10, TimeUnit.SECONDS);
      // A probe's announcement comes after any of the queue's, and a pass that one started has
      // run (one dispatch thread) by the time a task given to the dispatcher after it has.
      store.enqueue(List.of(job("t").queue("probe").build()), clock.instant());
      List<String> announced = heardUntil("probe");
      dispatch.submit(() -> {}).get(10, TimeUnit.SECONDS);

      assertThat(first.get(10, TimeUnit.SECONDS))
          .extracting(Job::id)
          .containsExactly(stored.job().id());
      assertThat(second).isNotDone();
      second.cancel(false);
      // The Enqueue with its lease, and the probe: none for the other waiter, which asked for
      // five jobs and would have found none.
      if (units() - unitsBefore == 2) {
        assertThat(announced).doesNotContain(QUEUE);
        return;
      }
    }
    fail("in no round was the other waiter spared a lease");
  }

  @Test
  void aHandoffCutShortByThePayloadBudgetLeavesTheRestAnnouncedForTheOtherWaiters()
      throws Exception {
    CompletableFuture<List<Job>> first = waitingWorker(5, "t");
    CompletableFuture<List<Job>> second = waitingWorker(5, "t", "x");
    byte[] longest = new byte[Settings.defaults().maxPayloadBytes()];
    List<EnqueueCommand> three = Collections.nCopies(3, EnqueueCommand.of(QUEUE, "t", longest));

    List<EnqueueResult> stored = scheduler.enqueueBatchAsync(three).get(10, TimeUnit.SECONDS);

    // The handoff's lease asked for five and took two, stopped by the budget: the third is still
    // announced, and the other waiter gets it.
    assertThat(first.get(10, TimeUnit.SECONDS))
        .extracting(Job::id)
        .containsExactly(stored.get(0).job().id(), stored.get(1).job().id());
    assertThat(second.get(10, TimeUnit.SECONDS))
        .extracting(Job::id)
        .containsExactly(stored.get(2).job().id());
  }

  @Test
  void aLeaseCutShortByThePayloadBudgetAnnouncesTheJobsItLeft() throws Exception {
    byte[] longest = new byte[Settings.defaults().maxPayloadBytes()];
    store.enqueue(
        Collections.nCopies(
            3, job("t").queue(QUEUE).payload(longest, "application/octet-stream").build()),
        clock.instant());
    store.enqueue(List.of(job("t").queue("probe").build()), clock.instant());
    heardUntil("probe");

    List<Job> leased =
        store.lease(
            new LeaseSpec("w", QUEUE, Set.of(), 5, clock.instant().plusSeconds(30)),
            clock.instant());
    store.enqueue(List.of(job("t").queue("probe").build()), clock.instant());

    // Two of five: the third, which the lease locked and left, is announced, so a lease that
    // passed over it meanwhile looks again.
    assertThat(leased).hasSize(2);
    assertThat(heardUntil("probe")).contains(QUEUE);
  }

  @Test
  void aWaiterForOtherTypesIsLeftWaitingAndTheJobPending() throws Exception {
    CompletableFuture<List<Job>> waiting = waitingWorker(1, "other");

    EnqueueResult stored =
        scheduler.enqueueAsync(EnqueueCommand.of(QUEUE, "t", JSON)).get(10, TimeUnit.SECONDS);

    assertThat(scheduler.get(stored.job().id()).state()).isEqualTo(JobState.PENDING);
    assertThat(waiting).isNotDone();
    waiting.cancel(false);
  }

  @Test
  void completionsAndTheLeaseThatRefillsTheirSlotsShareOneTransaction() {
    for (int round = 1; round <= 5; round++) {
      scheduler
          .enqueueBatchAsync(
              List.of(EnqueueCommand.of(QUEUE, "t", JSON), EnqueueCommand.of(QUEUE, "t", JSON)))
          .join();
      Job running =
          scheduler.lease(new LeaseCommand("w", QUEUE, List.of(), 1, null, null)).join().get(0);
      long unitsBefore = units();

      CompletionsAndLeases answer =
          scheduler
              .completeAllThenLease(
                  "w",
                  List.of(completion(running)),
                  new LeaseCommand("", QUEUE, List.of(), 1, null, null))
              .join();

      assertThat(answer.outcomes())
          .extracting(CompletionOutcome::status)
          .containsExactly(CompletionOutcome.Status.COMPLETED);
      assertThat(answer.leased()).hasSize(1);
      if (units() - unitsBefore == 1) {
        assertThat(scheduler.get(running.id()).state()).isEqualTo(JobState.SUCCEEDED);
        Job next = scheduler.get(answer.leased().get(0).id());
        assertThat(next.state()).isEqualTo(JobState.RUNNING);
        assertThat(next.lease().workerId()).isEqualTo("w");
        return;
      }
      scheduler.completeAll("w", List.of(completion(answer.leased().get(0)))).join();
    }
    fail("in no round did the completion and the lease share one transaction");
  }

  @Test
  void outcomesCommittedTogetherAreAnsweredEvenIfWakingTheLimitedQueuesFails() {
    store.enqueue(List.of(job("t").build(), job("t").build()), T0);
    Job running =
        store.lease(new LeaseSpec("w", "default", Set.of(), 1, T0.plusSeconds(30)), T0).get(0);
    WritesTogether writes =
        new WritesTogether(
            (jobs, now) -> {
              throw new IllegalStateException("no NOTIFY today");
            });
    CompletableFuture<List<CompletionOutcome>> judged =
        writes.completeAll(
            "w", List.of(completion(running)), T0, () -> fail("ran alone, not together"));
    CompletableFuture<List<Job>> next =
        writes.lease(spec(), T0, false, () -> fail("ran alone, not together"));

    writes.commit(store.transactions());

    assertThat(judged.join())
        .extracting(CompletionOutcome::status)
        .containsExactly(CompletionOutcome.Status.COMPLETED);
    assertThat(next.join()).hasSize(1);
    assertThat(store.get(running.id()).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  void writesMadeTogetherAreAnsweredOnlyOnceTheirTransactionCommitted() {
    AtomicReference<CompletableFuture<List<EnqueueResult>>> enqueued = new AtomicReference<>();
    AtomicReference<CompletableFuture<List<Job>>> leased = new AtomicReference<>();

    store.writeTogether(
        () -> {
          enqueued.set(store.enqueueAsync(List.of(job("t").build()), T0));
          leased.set(store.leaseAsync(spec(), T0));
          assertThat(enqueued.get()).isNotDone();
          assertThat(leased.get()).isNotDone();
          return null;
        });

    long id = enqueued.get().join().get(0).job().id();
    assertThat(leased.get().join()).extracting(Job::id).containsExactly(id);
    assertThat(store.get(id).orElseThrow().state()).isEqualTo(JobState.RUNNING);
  }

  @Test
  void enqueuesGatheredAloneStillShareTheGroupsOfConcurrentEnqueues() throws Exception {
    int threads = 32;
    int each = 40;
    long unitsBefore = units();

    Concurrently.run(
        threads,
        () -> {
          for (int i = 0; i < each; i++) {
            CompletableFuture<List<EnqueueResult>> stored =
                store.writeTogether(() -> store.enqueueAsync(List.of(job("t").build()), T0));
            assertThat(stored.join()).hasSize(1);
          }
        });

    // A transaction of its own each would be one unit per job.
    assertThat(units() - unitsBefore).isLessThan(threads * each);
    assertThat(store.stats("default", T0))
        .extracting(QueueCounts::pending)
        .containsExactly((long) threads * each);
  }

  @Test
  void aLeaseThatFailsCostsTheEnqueueBeforeItNothing() throws Exception {
    execute(
        "CREATE FUNCTION refuse_attempts() RETURNS trigger LANGUAGE plpgsql AS"
            + " $$ BEGIN RAISE EXCEPTION 'no attempts today'; END $$");
    execute(
        "CREATE TRIGGER refuse_attempts BEFORE INSERT ON attempts"
            + " FOR EACH ROW EXECUTE FUNCTION refuse_attempts()");
    AtomicReference<CompletableFuture<List<EnqueueResult>>> enqueued = new AtomicReference<>();
    AtomicReference<CompletableFuture<List<Job>>> leased = new AtomicReference<>();

    try {
      store.writeTogether(
          () -> {
            enqueued.set(store.enqueueAsync(List.of(job("t").build()), T0));
            leased.set(store.leaseAsync(spec(), T0));
            return null;
          });
    } finally {
      // The schema goes to a later test.
      execute("DROP FUNCTION refuse_attempts() CASCADE");
    }

    assertThat(leased.get())
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining("no attempts today");
    Job stored = enqueued.get().join().get(0).job();
    assertThat(store.get(stored.id()).orElseThrow().state()).isEqualTo(JobState.PENDING);
    assertThat(store.stats("default", T0)).extracting(QueueCounts::pending).containsExactly(1L);
  }

  private static Completion completion(Job job) {
    return new Completion(job.id(), LeaseClaim.of(job), null, null);
  }

  private static LeaseSpec spec() {
    return new LeaseSpec("w", "default", Set.of(), 5, T0.plusSeconds(30));
  }

  /** The queues announced until {@code queue} is, without it. */
  private List<String> heardUntil(String queue) throws InterruptedException {
    List<String> before = new ArrayList<>();
    while (true) {
      String next = heard.poll(10, TimeUnit.SECONDS);
      assertThat(next).as("announcement of " + queue).isNotNull();
      if (queue.equals(next)) {
        return before;
      }
      before.add(next);
    }
  }

  private void execute(String sql) throws SQLException {
    postgres.execute(options, sql);
  }
}
