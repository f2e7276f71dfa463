package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.Concurrently;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseRef;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two store instances on one database, each with its own pool: what two coordinators in two
 * processes do to each other when they act at the same moment.
 */
class PostgresCoordinatorsTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private PostgresOptions options;
  private PostgresJobStore first;
  private PostgresJobStore second;

  @BeforeEach
  void openTwoStoresOnOneSchema() {
    options = postgres.freshSchema();
    first = PostgresJobStore.open(options);
    second = PostgresJobStore.open(options);
  }

  @AfterEach
  void closeBoth() {
    first.close();
    second.close();
  }

  /** The store the n-th thread of {@link Concurrently#run} uses: they alternate between the two. */
  private PostgresJobStore storeFor(int thread) {
    return thread % 2 == 0 ? first : second;
  }

  private List<Job> leaseAll(int count) {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      jobs.add(job("t" + i).build());
    }
    first.enqueue(jobs, T0);
    List<Job> leased = new ArrayList<>();
    List<Job> batch;
    do {
      batch = first.lease(spec("doomed-worker", 50, at(30)), T0);
      leased.addAll(batch);
    } while (!batch.isEmpty());
    assertThat(leased).hasSize(count);
    return leased;
  }

  @Test
  @Timeout(60)
  void twoCoordinatorsSweepingTheSameExpiredLeasesTakeEachJobBackOnce() throws Exception {
    List<Job> leased = leaseAll(200);
    List<LeaseRef> timers = new ArrayList<>(first.runningLeases());
    Collections.shuffle(timers, new Random(7));
    ConcurrentLinkedQueue<Long> takenBack = new ConcurrentLinkedQueue<>();
    AtomicInteger threads = new AtomicInteger();

    Concurrently.run(
        8,
        () -> {
          int index = threads.getAndIncrement();
          PostgresJobStore store = storeFor(index);
          if (index < 6) {
            List<Job> swept;
            do {
              swept = store.expireLeases(at(31), 7);
              swept.forEach(j -> takenBack.add(j.id()));
            } while (!swept.isEmpty());
          } else {
            // The timer path races the sweeps for the same leases.
            for (LeaseRef lease : timers) {
              store
                  .expireLease(lease.jobId(), lease.fencingToken(), at(31))
                  .ifPresent(j -> takenBack.add(j.id()));
            }
          }
        });

    assertThat(takenBack).hasSize(200).doesNotHaveDuplicates();
    assertThat(takenBack)
        .containsExactlyInAnyOrderElementsOf(leased.stream().map(Job::id).toList());
    for (Job job : leased) {
      Job after = second.get(job.id()).orElseThrow();
      assertThat(after.state()).isEqualTo(JobState.PENDING);
      assertThat(after.leaseExpiries()).isEqualTo(1);
      assertThat(after.history())
          .extracting(Attempt::outcome)
          .containsExactly(AttemptOutcome.LEASE_EXPIRED);
    }
    assertThat(first.runningLeases()).isEmpty();
  }

  @Test
  @Timeout(60)
  void batchesCompletingTheSameJobsAtOnceCompleteEachJobOnce() throws Exception {
    List<Job> leased = leaseAll(200);
    List<Completion> forward = new ArrayList<>();
    for (Job job : leased) {
      forward.add(new Completion(job.id(), LeaseClaim.of(job), null, null));
    }
    List<Completion> backward = new ArrayList<>(forward);
    Collections.reverse(backward);
    ConcurrentLinkedQueue<CompletionOutcome> outcomes = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Long> takenBack = new ConcurrentLinkedQueue<>();
    AtomicInteger threads = new AtomicInteger();

    // Six threads complete all 200 jobs in batches of 50, half front to back and half back to
    // front; two sweep the same leases as expired at the same time.
    Concurrently.run(
        8,
        () -> {
          int index = threads.getAndIncrement();
          PostgresJobStore store = storeFor(index);
          if (index >= 6) {
            store.expireLeases(at(31), 200).forEach(j -> takenBack.add(j.id()));
            return;
          }
          List<Completion> order = index % 2 == 0 ? forward : backward;
          for (int from = 0; from < order.size(); from += 50) {
            outcomes.addAll(store.completeAll("doomed-worker", order.subList(from, from + 50), T0));
          }
        });

    // The six batches come from one worker with the same tokens, so a repeat of a completion that
    // already committed is that worker's own retry: it is answered COMPLETED again, but the job is
    // completed (and its attempt recorded) once, which the history check below holds.
    Set<Long> completed =
        outcomes.stream()
            .filter(o -> o.status() == CompletionOutcome.Status.COMPLETED)
            .map(CompletionOutcome::jobId)
            .collect(Collectors.toSet());
    // takenBack may be empty when no lease was taken back in time: the check holds all the same.
    assertThat(completed).filteredOn(takenBack::contains).isEmpty();
    assertThat(outcomes).hasSize(6 * 200);
    assertThat(outcomes)
        .filteredOn(o -> o.status() != CompletionOutcome.Status.COMPLETED)
        .extracting(CompletionOutcome::status)
        .isSubsetOf(CompletionOutcome.Status.LEASE_LOST);
    assertThat(completed.size() + takenBack.size()).isEqualTo(200);
    for (Job job : leased) {
      Job after = second.get(job.id()).orElseThrow();
      JobState expected = completed.contains(job.id()) ? JobState.SUCCEEDED : JobState.PENDING;
      assertThat(after.state()).isEqualTo(expected);
      assertThat(after.history())
          .filteredOn(a -> a.workerId().equals("doomed-worker"))
          .extracting(Attempt::outcome)
          .filteredOn(o -> o != AttemptOutcome.STALE_COMPLETION_REJECTED)
          .singleElement()
          .isEqualTo(
              expected == JobState.SUCCEEDED
                  ? AttemptOutcome.SUCCEEDED
                  : AttemptOutcome.LEASE_EXPIRED);
    }
  }

  @Test
  @Timeout(60)
  void aBatchCompletionDoesNotWaitForAnotherCoordinatorRecordingHistoryOfItsJobs()
      throws Exception {
    // Recording a stale report's rejection takes a key share lock on its job row (AttemptRows, as
    // the foreign key's check did before V17), held until that transaction ends. A batch completion
    // must not wait for it: two batches recording the rejection of each other's jobs would
    // otherwise each wait for the other, which PostgreSQL ends as a deadlock (seen in the test
    // above).
    List<Job> leased = leaseAll(2);
    List<Completion> both = new ArrayList<>();
    for (Job job : leased) {
      both.add(new Completion(job.id(), LeaseClaim.of(job), null, null));
    }
    try (Connection other = postgres.connect()) {
      other.setAutoCommit(false);
      try (Statement statement = other.createStatement()) {
        statement.execute(
            "SELECT id FROM "
                + options.schema()
                + ".jobs WHERE id = "
                + leased.get(1).id()
                + " FOR KEY SHARE");
      }
      CompletableFuture<List<CompletionOutcome>> batch =
          CompletableFuture.supplyAsync(() -> second.completeAll("doomed-worker", both, T0));

      assertThat(batch.get(10, TimeUnit.SECONDS))
          .extracting(CompletionOutcome::status)
          .containsOnly(CompletionOutcome.Status.COMPLETED);
      other.rollback();
    }
  }

  @Test
  @Timeout(60)
  void twoCoordinatorsEnqueueingWithOneKeyCreateOneJob() throws Exception {
    for (int round = 0; round < 10; round++) {
      NewJob sameJob = job("email").key("order-" + round).payload("{\"n\":1}").build();
      Instant now = at(round);
      ConcurrentLinkedQueue<EnqueueResult> results = new ConcurrentLinkedQueue<>();
      AtomicInteger threads = new AtomicInteger();

      Concurrently.run(
          8,
          () -> results.addAll(storeFor(threads.getAndIncrement()).enqueue(List.of(sameJob), now)));

      assertThat(results).hasSize(8);
      assertThat(results).filteredOn(r -> !r.deduplicated()).hasSize(1);
      assertThat(results.stream().map(r -> r.job().id()).distinct()).hasSize(1);
    }
    assertThat(first.list(new JobQuery(null, "email", null, null, 100)).jobs()).hasSize(10);
  }

  @Test
  @Timeout(60)
  void batchesWithOneKeySetInOpposedOrdersCreateOneJobPerKey() throws Exception {
    List<NewJob> forward = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      forward.add(job("t").key("k" + i).build());
    }
    List<NewJob> backward = new ArrayList<>(forward);
    Collections.reverse(backward);
    AtomicInteger threads = new AtomicInteger();

    // Opposed lock orders can deadlock; the loser's transaction runs again and deduplicates.
    Concurrently.run(
        6,
        () -> {
          int index = threads.getAndIncrement();
          storeFor(index).enqueue(index % 4 < 2 ? forward : backward, T0);
        });

    assertThat(first.list(new JobQuery(null, null, null, null, 100)).jobs())
        .hasSize(10)
        .extracting(Job::idempotencyKey)
        .doesNotHaveDuplicates();
  }

  @Test
  @Timeout(60)
  void twoCoordinatorsLeasingAtOnceNeverShareAJobAndIdsStayUnique() throws Exception {
    ConcurrentLinkedQueue<Long> enqueued = new ConcurrentLinkedQueue<>();
    AtomicInteger enqueuers = new AtomicInteger();
    Concurrently.run(
        6,
        () -> {
          PostgresJobStore store = storeFor(enqueuers.getAndIncrement());
          for (int i = 0; i < 50; i++) {
            enqueued.add(store.enqueue(List.of(job("t").build()), T0).get(0).job().id());
          }
        });
    assertThat(enqueued).hasSize(300).doesNotHaveDuplicates();
    ConcurrentLinkedQueue<Long> leased = new ConcurrentLinkedQueue<>();
    AtomicInteger leasers = new AtomicInteger();

    Concurrently.run(
        8,
        () -> {
          PostgresJobStore store = storeFor(leasers.getAndIncrement());
          List<Job> batch;
          do {
            batch = store.lease(spec(Thread.currentThread().getName(), 4, at(30)), T0);
            batch.forEach(j -> leased.add(j.id()));
          } while (!batch.isEmpty());
        });

    assertThat(leased).hasSize(300).doesNotHaveDuplicates();
  }
}
