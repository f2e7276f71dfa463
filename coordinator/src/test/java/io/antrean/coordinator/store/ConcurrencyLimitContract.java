package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Concurrency limits: a cap on a queue's RUNNING jobs, and on its RUNNING jobs per key. */
public interface ConcurrencyLimitContract extends JobStoreFixture {

  default Job enqueueKeyed(String key) {
    return enqueue(job("t").concurrencyKey(key).build());
  }

  @Test
  default void concurrencyKeyIsStoredAndReadBack() {
    Job stored = enqueueKeyed("customer-7");

    assertThat(stored.concurrencyKey()).isEqualTo("customer-7");
    assertThat(reload(stored.id()).concurrencyKey()).isEqualTo("customer-7");
    assertThat(enqueue("t").concurrencyKey()).isNull();
  }

  @Test
  default void perKeyLimitPassesOverABusyKeysJobAndLeasesTheNextKeys() {
    store().setQueueLimits(QUEUE, new QueueLimits(null, 1));
    Job a1 = enqueueKeyed("a");
    Job a2 = enqueueKeyed("a");
    Job b1 = enqueueKeyed("b");

    List<Job> leased = store().lease(spec("w", 10, at(30)), T0);

    assertThat(ids(leased)).containsExactly(a1.id(), b1.id());
    Job held = reload(a2.id());
    assertThat(held.state()).isEqualTo(JobState.PENDING);
    assertThat(held.attempts()).as("a job held back spends no attempt").isZero();
    assertThat(held.history()).isEmpty();
    assertThat(store().lease(spec("w", 10, at(30)), at(1))).isEmpty();
  }

  @Test
  default void aLeaseFromALimitedQueueHasALeaseIdThatCompletesItWhereAGuessedOneIsRefused() {
    store().setQueueLimits(QUEUE, new QueueLimits(1, 1));
    enqueueKeyed("a");

    Job leased = leaseOne("w");

    assertThat(leased.lease().leaseId().text()).matches("[0-9a-f]{32}");
    assertThat(reload(leased.id()).lease().leaseId().matches(leased.lease().leaseId())).isTrue();
    LeaseClaim guessed = new LeaseClaim(token(leased), LeaseId.generate());
    assertThatThrownBy(() -> store().complete(leased.id(), guessed, "w", null, null, at(1)))
        .isInstanceOf(LeaseLostException.class);
    Job done = store().complete(leased.id(), LeaseClaim.of(leased), "w", null, null, at(2));
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    // The history entry kept the digest too: the lost answer's repeat is recognised.
    Job again = store().complete(leased.id(), LeaseClaim.of(leased), "w", null, null, at(3));
    assertThat(again.updatedAt()).isEqualTo(done.updatedAt());
  }

  @Test
  default void finishingAKeysJobLetsItsNextJobRun() {
    store().setQueueLimits(QUEUE, new QueueLimits(null, 1));
    enqueueKeyed("a");
    Job second = enqueueKeyed("a");
    Job first = leaseOne("w");

    store().complete(first.id(), claim(first), "w", null, null, at(1));

    assertThat(ids(store().lease(spec("w", 10, at(30)), at(2)))).containsExactly(second.id());
  }

  @Test
  default void perKeyLimitAboveOneLeasesThatManyOfAKey() {
    store().setQueueLimits(QUEUE, new QueueLimits(null, 2));
    List<Long> a = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      a.add(enqueueKeyed("a").id());
    }
    Job b = enqueueKeyed("b");

    assertThat(ids(store().lease(spec("w", 1, at(30)), T0))).containsExactly(a.get(0));
    assertThat(ids(store().lease(spec("w", 10, at(30)), T0))).containsExactly(a.get(1), b.id());
  }

  @Test
  default void jobsWithoutAKeyAreHeldOnlyByTheQueueCap() {
    store().setQueueLimits(QUEUE, new QueueLimits(3, 1));
    for (int i = 0; i < 5; i++) {
      enqueue("t");
    }

    assertThat(store().lease(spec("w", 10, at(30)), T0)).hasSize(3);
    assertThat(store().lease(spec("w", 10, at(30)), T0)).isEmpty();
  }

  @Test
  default void queueCapCountsRunningJobsOfEveryLease() {
    store().setQueueLimits(QUEUE, new QueueLimits(2, null));
    for (int i = 0; i < 5; i++) {
      enqueue("t");
    }
    Job first = leaseOne("w1");

    List<Job> second = store().lease(spec("w2", 10, at(30)), T0);
    assertThat(second).hasSize(1);
    assertThat(store().lease(spec("w3", 10, at(30)), T0)).isEmpty();

    store().fail(first.id(), claim(first), "w1", PERMANENT, NEVER_RETRY, at(1));
    assertThat(store().lease(spec("w3", 10, at(30)), at(2))).hasSize(1);
  }

  @Test
  default void expiredLeaseTakenBackFreesItsKeysSlot() {
    store().setQueueLimits(QUEUE, new QueueLimits(null, 1));
    Job job = enqueueKeyed("a");
    leaseOne("w1", T0, at(30));
    assertThat(store().lease(spec("w2", 10, at(60)), at(31)))
        .as("an expired lease still counts until it is taken back")
        .isEmpty();

    assertThat(store().expireLeases(at(31), 10)).hasSize(1);

    assertThat(ids(store().lease(spec("w2", 10, at(60)), at(32)))).containsExactly(job.id());
  }

  @Test
  default void limitsOfOneQueueLeaveAnotherAlone() {
    store().setQueueLimits("other", new QueueLimits(1, 1));
    enqueueKeyed("a");
    enqueueKeyed("a");

    assertThat(store().lease(spec("w", 10, at(30)), T0)).hasSize(2);
  }

  @Test
  default void limitsAreListedReplacedAndRemoved() {
    store().setQueueLimits("b", new QueueLimits(5, null));
    store().setQueueLimits("a", new QueueLimits(null, 1));
    store().setQueuePaused("c", true, T0);

    assertThat(store().queueLimits())
        .containsExactly(
            entry("a", new QueueLimits(null, 1)), entry("b", new QueueLimits(5, null)));

    store().setQueueLimits("b", new QueueLimits(7, 2));
    store().setQueueLimits("a", QueueLimits.NONE);
    assertThat(store().queueLimits()).containsExactly(entry("b", new QueueLimits(7, 2)));
    assertThat(store().pausedQueues()).containsOnlyKeys("c");
  }

  @Test
  default void removingTheLimitsLeasesEveryReadyJobAgain() {
    store().setQueueLimits(QUEUE, new QueueLimits(1, 1));
    enqueueKeyed("a");
    enqueueKeyed("a");
    enqueueKeyed("a");
    leaseOne("w");

    store().setQueueLimits(QUEUE, QueueLimits.NONE);

    assertThat(store().lease(spec("w", 10, at(30)), T0)).hasSize(2);
  }

  @Test
  default void aPausedLimitedQueueLeasesNothing() {
    store().setQueueLimits(QUEUE, new QueueLimits(5, 5));
    store().setQueuePaused(QUEUE, true, T0);
    enqueueKeyed("a");

    assertThat(store().lease(spec("w", 10, at(30)), T0)).isEmpty();
  }

  @Test
  default void limitedLeaseKeepsPriorityOrderRunTimeAndTypeFilter() {
    store().setQueueLimits(QUEUE, new QueueLimits(null, 1));
    Job later = enqueue(job("t").concurrencyKey("a").runAt(at(10)).build());
    Job low = enqueue(job("t").concurrencyKey("b").build());
    Job high = enqueue(job("t").concurrencyKey("b").priority(5).build());
    Job otherType = enqueue(job("other").concurrencyKey("c").build());

    List<Job> leased = store().lease(new LeaseSpec("w", QUEUE, Set.of("t"), 10, at(30)), T0);

    assertThat(ids(leased)).containsExactly(high.id());
    assertThat(reload(low.id()).state()).isEqualTo(JobState.PENDING);
    assertThat(reload(later.id()).state()).isEqualTo(JobState.PENDING);
    assertThat(reload(otherType.id()).state()).isEqualTo(JobState.PENDING);
    Job leasedJob = reload(high.id());
    assertThat(leasedJob.attempts()).isEqualTo(1);
    assertThat(leasedJob.history()).hasSize(1);
    assertThat(leasedJob.lease().workerId()).isEqualTo("w");
  }

  @Test
  default void jobsHeldByLimitsCountsWhatABusyKeyOrAFullQueueHoldsBack() {
    store().setQueueLimits(QUEUE, new QueueLimits(2, 1));
    enqueueKeyed("a");
    enqueueKeyed("a");
    enqueueKeyed("a");
    enqueueKeyed("b");
    enqueue("t");
    enqueue(job("t").concurrencyKey("c").runAt(at(100)).build());
    enqueue(job("t").queue("unlimited").build());
    assertThat(store().jobsHeldByLimits(T0)).containsExactly(entry(QUEUE, 0L));

    leaseOne("w");
    assertThat(store().jobsHeldByLimits(T0))
        .as("key a is at its cap: its two other ready jobs wait")
        .containsExactly(entry(QUEUE, 2L));

    assertThat(store().lease(spec("w", 1, at(30)), T0)).hasSize(1);
    assertThat(store().jobsHeldByLimits(T0))
        .as("the queue is at its cap: every ready job waits, the one not due yet not counted")
        .containsExactly(entry(QUEUE, 3L));
  }

  @Test
  @Timeout(60)
  default void concurrentLeasesNeverRunTwoJobsOfOneKey() throws Exception {
    store().setQueueLimits(QUEUE, new QueueLimits(6, 1));
    for (int i = 0; i < 40; i++) {
      enqueueKeyed("k" + (i % 4));
    }
    Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    AtomicInteger total = new AtomicInteger();
    AtomicInteger highest = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    Map<String, Integer> worstPerKey = new ConcurrentHashMap<>();
    Concurrently.run(
        8,
        () -> {
          String worker = "w-" + Thread.currentThread().getId();
          for (int round = 0; round < 400 && done.get() < 40; round++) {
            List<Job> leased = store().lease(spec(worker, 2, at(30)), T0);
            // Counted as running from the lease until just before the completion, with a read
            // of the store in between for another lease to slip into.
            for (Job job : leased) {
              int now =
                  running
                      .computeIfAbsent(job.concurrencyKey(), k -> new AtomicInteger())
                      .incrementAndGet();
              worstPerKey.merge(job.concurrencyKey(), now, Math::max);
              highest.accumulateAndGet(total.incrementAndGet(), Math::max);
            }
            for (Job job : leased) {
              assertThat(reload(job.id()).state()).isEqualTo(JobState.RUNNING);
            }
            for (Job job : leased) {
              running.get(job.concurrencyKey()).decrementAndGet();
              total.decrementAndGet();
              store().complete(job.id(), claim(job), worker, null, null, at(1));
              done.incrementAndGet();
            }
          }
        });

    assertThat(done.get()).isEqualTo(40);
    Map<String, Integer> expected = new HashMap<>();
    for (int k = 0; k < 4; k++) {
      expected.put("k" + k, 1);
    }
    assertThat(worstPerKey).isEqualTo(expected);
    assertThat(highest.get()).isLessThanOrEqualTo(4);
  }
}
