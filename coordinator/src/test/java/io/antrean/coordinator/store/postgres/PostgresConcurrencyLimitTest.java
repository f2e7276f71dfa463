package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Concurrently;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.QueueLimits;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Concurrency limits with two store instances on one database, as two coordinators see them: a
 * limit set through one holds for the other, and their leases together never exceed it.
 */
class PostgresConcurrencyLimitTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private PostgresJobStore first;
  private PostgresJobStore second;

  @BeforeEach
  void openTwoStoresOnOneSchema() {
    PostgresOptions options = postgres.freshSchema();
    first = PostgresJobStore.open(options);
    second = PostgresJobStore.open(options);
  }

  @AfterEach
  void closeBoth() {
    first.close();
    second.close();
  }

  private static Instant millis(long millisAfterT0) {
    return T0.plusMillis(millisAfterT0);
  }

  private void enqueueKeyed(String key, int count) {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      jobs.add(job("t").concurrencyKey(key).build());
    }
    first.enqueue(jobs, T0);
  }

  @Test
  void limitSetThroughAnotherStoreHoldsAtOnceAndLeasesAfterTheNextLook() {
    assertThat(second.lease(spec("w", 10, millis(30_000)), T0))
        .as("the second store has looked: no queue has limits")
        .isEmpty();
    first.setQueueLimits(QUEUE, new QueueLimits(null, 1));
    enqueueKeyed("a", 3);

    assertThat(second.lease(spec("w", 10, millis(30_000)), millis(500)))
        .as("before its next look the second store leases nothing rather than exceed the limit")
        .isEmpty();
    List<Job> leased = second.lease(spec("w", 10, millis(30_000)), millis(1_000));
    assertThat(leased).hasSize(1);
    assertThat(first.lease(spec("w", 10, millis(30_000)), millis(1_000))).isEmpty();
  }

  @Test
  @Timeout(120)
  void twoStoresLeasingAtOnceNeverRunTwoJobsOfOneKey() throws Exception {
    first.setQueueLimits(QUEUE, new QueueLimits(null, 1));
    second.setQueueLimits(QUEUE, new QueueLimits(null, 1));
    for (int k = 0; k < 3; k++) {
      enqueueKeyed("k" + k, 10);
    }
    Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    Map<String, Integer> worst = new ConcurrentHashMap<>();
    AtomicInteger done = new AtomicInteger();
    AtomicInteger threads = new AtomicInteger();
    Concurrently.run(
        6,
        () -> {
          int n = threads.getAndIncrement();
          PostgresJobStore store = n % 2 == 0 ? first : second;
          String worker = "w" + n;
          for (int round = 0; round < 2_000 && done.get() < 30; round++) {
            List<Job> leased = store.lease(spec(worker, 3, millis(60_000)), millis(10));
            // Counted as running from the lease until just before the completion, with a
            // round trip to the database in between for another lease to slip into.
            for (Job job : leased) {
              AtomicInteger ofKey =
                  running.computeIfAbsent(job.concurrencyKey(), k -> new AtomicInteger());
              worst.merge(job.concurrencyKey(), ofKey.incrementAndGet(), Math::max);
            }
            for (Job job : leased) {
              assertThat(store.get(job.id()).orElseThrow().lease()).isNotNull();
            }
            for (Job job : leased) {
              running.get(job.concurrencyKey()).decrementAndGet();
              store.complete(job.id(), LeaseClaim.of(job), worker, null, null, millis(20));
              done.incrementAndGet();
            }
          }
        });

    assertThat(done.get()).isEqualTo(30);
    assertThat(worst)
        .containsOnlyKeys("k0", "k1", "k2")
        .allSatisfy((k, v) -> assertThat(v).isOne());
  }
}
