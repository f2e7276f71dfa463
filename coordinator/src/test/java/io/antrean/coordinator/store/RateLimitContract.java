package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Rate limits: token buckets per queue and per concurrency key, checked at lease time. */
public interface RateLimitContract extends JobStoreFixture {

  private List<Long> enqueueMany(int count) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(enqueue("t").id());
    }
    return ids;
  }

  private static RateLimit perTenSeconds(int starts) {
    return new RateLimit(starts, Duration.ofSeconds(10));
  }

  @Test
  default void queueRateLimitStartsAtMostItsBucketAndRefillsOverTime() {
    store().setQueueLimits(QUEUE, new QueueLimits(null, null, perTenSeconds(2), null));
    List<Long> ids = enqueueMany(5);

    assertThat(ids(store().lease(spec("w", 10, at(60)), T0)))
        .containsExactly(ids.get(0), ids.get(1));
    assertThat(store().lease(spec("w", 10, at(60)), at(4))).isEmpty();
    Job held = reload(ids.get(2));
    assertThat(held.state()).isEqualTo(JobState.PENDING);
    assertThat(held.attempts()).as("a job held back spends no attempt").isZero();

    assertThat(ids(store().lease(spec("w", 10, at(60)), at(5)))).containsExactly(ids.get(2));
    assertThat(ids(store().lease(spec("w", 10, at(60)), at(60))))
        .as("a bucket refills up to its size, never beyond")
        .containsExactly(ids.get(3), ids.get(4));
  }

  @Test
  default void aLeaseThatAnEmptyQueueBucketCutShortReportsWhenTheNextTokenIsIn() {
    store().setQueueLimits(QUEUE, new QueueLimits(null, null, perTenSeconds(2), null));
    enqueueMany(3);
    List<Map.Entry<String, Instant>> told = new CopyOnWriteArrayList<>();
    store().subscribeTokenWakeups((queue, at) -> told.add(entry(queue, at)));

    assertThat(store().lease(spec("w", 10, at(60)), T0)).hasSize(2);
    assertThat(told)
        .as("2 starts per 10 s: one token every 5 s after the bucket ran dry")
        .containsExactly(entry(QUEUE, at(5)));

    told.clear();
    assertThat(store().lease(spec("w", 10, at(60)), at(5))).hasSize(1);
    assertThat(told).containsExactly(entry(QUEUE, at(10)));
  }

  @Test
  default void aLeaseReportsNothingWhileTheBucketStillHasTokens() {
    store().setQueueLimits(QUEUE, new QueueLimits(null, null, perTenSeconds(5), null));
    enqueueMany(3);
    List<Map.Entry<String, Instant>> told = new CopyOnWriteArrayList<>();
    store().subscribeTokenWakeups((queue, at) -> told.add(entry(queue, at)));

    assertThat(store().lease(spec("w", 10, at(60)), T0)).hasSize(3);
    assertThat(store().lease(spec("w", 10, at(60)), T0)).isEmpty();
    assertThat(told).as("the queue ran out of jobs, not of tokens").isEmpty();
  }

  @Test
  default void aLeaseThatAnEmptyKeyBucketCutShortReportsTheKeysNextToken() {
    RateLimit onePerMinute = new RateLimit(1, Duration.ofMinutes(1));
    store().setQueueLimits(QUEUE, new QueueLimits(null, null, null, onePerMinute));
    Job a1 = enqueue(job("t").concurrencyKey("a").build());
    Job a2 = enqueue(job("t").concurrencyKey("a").build());
    List<Map.Entry<String, Instant>> told = new CopyOnWriteArrayList<>();
    store().subscribeTokenWakeups((queue, at) -> told.add(entry(queue, at)));

    assertThat(ids(store().lease(spec("w", 10, at(600)), at(10)))).containsExactly(a1.id());
    assertThat(store().lease(spec("w", 10, at(600)), at(30))).isEmpty();

    assertThat(told)
        .as("key a's bucket, emptied at 10 s, has its next token at 70 s")
        .containsOnly(entry(QUEUE, at(70)));
    assertThat(ids(store().lease(spec("w", 10, at(600)), at(70)))).containsExactly(a2.id());
  }

  @Test
  default void perKeyRateLimitHoldsABusyKeyAndLetsAnotherKeyThrough() {
    RateLimit onePerMinute = new RateLimit(1, Duration.ofMinutes(1));
    store().setQueueLimits(QUEUE, new QueueLimits(null, null, null, onePerMinute));
    Job a1 = enqueue(job("t").concurrencyKey("a").build());
    Job a2 = enqueue(job("t").concurrencyKey("a").build());
    Job b1 = enqueue(job("t").concurrencyKey("b").build());
    Job free = enqueue("t");

    assertThat(ids(store().lease(spec("w", 10, at(600)), T0)))
        .containsExactly(a1.id(), b1.id(), free.id());
    assertThat(store().lease(spec("w", 10, at(600)), at(30))).isEmpty();
    assertThat(reload(a2.id()).attempts()).isZero();

    assertThat(ids(store().lease(spec("w", 10, at(600)), at(60)))).containsExactly(a2.id());
  }

  @Test
  default void rateAndConcurrencyLimitsHoldTogether() {
    store()
        .setQueueLimits(
            QUEUE,
            new QueueLimits(null, 1, perTenSeconds(10), new RateLimit(2, Duration.ofHours(1))));
    List<Job> a = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      a.add(enqueue(job("t").concurrencyKey("a").build()));
    }
    Job first = leaseOne("w");
    store().complete(first.id(), claim(first), "w", null, null, at(1));
    Job second = leaseOne("w", at(1), at(60));
    store().complete(second.id(), claim(second), "w", null, null, at(2));

    assertThat(store().lease(spec("w", 10, at(60)), at(3)))
        .as("the key has room to run but its bucket is empty for the hour")
        .isEmpty();
    assertThat(ids(List.of(first, second))).containsExactly(a.get(0).id(), a.get(1).id());
  }

  @Test
  default void jobsHeldByLimitsCountsJobsWaitingForATokenOfTheirKeyOrQueue() {
    store()
        .setQueueLimits(
            QUEUE, new QueueLimits(null, null, null, new RateLimit(1, Duration.ofMinutes(1))));
    enqueue(job("t").concurrencyKey("a").build());
    enqueue(job("t").concurrencyKey("a").build());
    enqueue(job("t").concurrencyKey("b").build());
    assertThat(store().lease(spec("w", 2, at(600)), T0)).hasSize(2);

    assertThat(store().jobsHeldByLimits(at(1))).containsExactly(entry(QUEUE, 1L));
    assertThat(store().jobsHeldByLimits(at(60))).containsExactly(entry(QUEUE, 0L));

    store().setQueueLimits("q", new QueueLimits(null, null, perTenSeconds(1), null));
    enqueue(job("t").queue("q").build());
    enqueue(job("t").queue("q").build());
    store().lease(new LeaseSpec("w", "q", java.util.Set.of(), 10, at(600)), T0);
    assertThat(store().jobsHeldByLimits(at(1))).containsEntry("q", 1L);
  }

  @Test
  default void rateLimitsAreListedAndSettingThemAgainRefillsTheBucket() {
    QueueLimits limits = new QueueLimits(null, null, perTenSeconds(1), perTenSeconds(3));
    store().setQueueLimits(QUEUE, limits);
    assertThat(store().queueLimits()).containsExactly(entry(QUEUE, limits));
    enqueueMany(3);
    assertThat(store().lease(spec("w", 10, at(60)), T0)).hasSize(1);
    assertThat(store().lease(spec("w", 10, at(60)), T0)).isEmpty();

    store().setQueueLimits(QUEUE, limits);

    assertThat(store().lease(spec("w", 10, at(60)), T0)).hasSize(1);
  }
}
