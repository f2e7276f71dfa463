package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Deleting finished jobs past their keep time, and forgetting expired idempotency keys. */
public interface RetentionContract extends JobStoreFixture {

  default boolean exists(Job job) {
    return store().get(job.id()).isPresent();
  }

  @Test
  default void deleteFinishedDeletesOnlyJobsOfTheStateFinishedBeforeTheCutoff() {
    Job early = succeeded(job("a").build(), at(10));
    Job later = succeeded(job("b").build(), at(20));
    Job atCutoff = succeeded(job("c").build(), at(30));
    Job dead = deadLetter("dead", at(5));
    Job cancelled = store().cancel(enqueue("cancelled").id(), at(5));
    Job running = enqueue("running");
    leaseOne("w", at(6), at(60));
    Job pending = enqueue(job("pending").runAt(at(1000)).build());

    assertThat(store().deleteFinished(JobState.SUCCEEDED, at(30), 100)).isEqualTo(2);

    assertThat(exists(early)).isFalse();
    assertThat(exists(later)).isFalse();
    assertThat(exists(atCutoff)).as("finished at the cutoff is kept").isTrue();
    assertThat(List.of(dead, cancelled, running, pending)).allMatch(this::exists);
    assertThat(store().deleteFinished(JobState.FAILED, at(30), 100)).isEqualTo(1);
    assertThat(store().deleteFinished(JobState.CANCELLED, at(30), 100)).isEqualTo(1);
    assertThat(exists(dead)).isFalse();
    assertThat(exists(cancelled)).isFalse();
    assertThat(List.of(atCutoff, running, pending)).allMatch(this::exists);
  }

  @Test
  default void deleteFinishedTakesTheLongestFinishedFirstUpToTheLimit() {
    Job a = enqueue("a");
    Job b = enqueue("b");
    Job c = enqueue("c");
    List<Job> leased = store().lease(spec("w", 3, at(60)), T0);
    assertThat(ids(leased)).containsExactly(a.id(), b.id(), c.id());
    store().complete(c.id(), claim(leased.get(2)), "w", null, null, at(5));
    store().complete(a.id(), claim(leased.get(0)), "w", null, null, at(10));
    store().complete(b.id(), claim(leased.get(1)), "w", null, null, at(15));

    assertThat(store().deleteFinished(JobState.SUCCEEDED, at(100), 2)).isEqualTo(2);

    assertThat(exists(c)).isFalse();
    assertThat(exists(a)).isFalse();
    assertThat(exists(b)).isTrue();
    assertThat(store().deleteFinished(JobState.SUCCEEDED, at(100), 2)).isEqualTo(1);
    assertThat(store().deleteFinished(JobState.SUCCEEDED, at(100), 2)).isZero();
  }

  @Test
  default void deleteFinishedRefusesStatesThatAreNotFinishedAndLimitsBelowOne() {
    Job pending = enqueue("pending");

    assertThatThrownBy(() -> store().deleteFinished(JobState.PENDING, at(100), 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PENDING");
    assertThatThrownBy(() -> store().deleteFinished(JobState.RUNNING, at(100), 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store().deleteFinished(JobState.SUCCEEDED, at(100), 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store().forgetExpiredIdempotencyKeys(at(100), 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(exists(pending)).isTrue();
  }

  @Test
  default void redrivenJobIsNoLongerDueForRetention() {
    Job dead = deadLetter("t", at(1));
    store().redrive(List.of(dead.id()), at(1000), Duration.ZERO, at(2));

    assertThat(store().deleteFinished(JobState.FAILED, at(500), 10)).isZero();
    assertThat(exists(dead)).isTrue();
  }

  @Test
  default void keyOfADeletedJobCanBeUsedAgainBeforeItExpires() {
    Job done = succeeded(job("email").key("order-1").payload("{\"v\":1}").build(), at(1));
    assertThat(store().deleteFinished(JobState.SUCCEEDED, at(2), 10)).isEqualTo(1);

    EnqueueResult reused =
        store()
            .enqueue(List.of(job("email").key("order-1").payload("{\"v\":2}").build()), at(3))
            .get(0);

    assertThat(reused.deduplicated()).as("the key's job is gone, so the key is free").isFalse();
    assertThat(reused.job().id()).isGreaterThan(done.id());
    EnqueueResult again =
        store()
            .enqueue(List.of(job("email").key("order-1").payload("{\"v\":2}").build()), at(4))
            .get(0);
    assertThat(again.deduplicated()).isTrue();
    assertThat(again.job().id()).isEqualTo(reused.job().id());
  }

  @Test
  default void expiredIdempotencyKeysAreForgottenAndLiveOnesKept() {
    Job early = enqueue(job("t").key("k1", at(10)).build());
    enqueue(job("t").key("k2", at(20)).build());
    Job live = enqueue(job("t").key("k3", at(30)).build());

    assertThat(store().forgetExpiredIdempotencyKeys(at(20), 100))
        .as("keys expiring at now are expired")
        .isEqualTo(2);
    assertThat(store().forgetExpiredIdempotencyKeys(at(20), 100)).isZero();

    EnqueueResult kept =
        store().enqueue(List.of(job("t").key("k3", at(90)).build()), at(25)).get(0);
    assertThat(kept.deduplicated()).isTrue();
    assertThat(kept.job().id()).isEqualTo(live.id());
    EnqueueResult reused =
        store().enqueue(List.of(job("t").key("k1", at(90)).build()), at(25)).get(0);
    assertThat(reused.deduplicated()).isFalse();
    assertThat(exists(early)).as("forgetting a key keeps its job").isTrue();
  }

  @Test
  default void forgetExpiredIdempotencyKeysStopsAtTheLimit() {
    for (int i = 0; i < 5; i++) {
      enqueue(job("t").key("k" + i, at(i)).build());
    }

    assertThat(store().forgetExpiredIdempotencyKeys(at(100), 2)).isEqualTo(2);
    assertThat(store().forgetExpiredIdempotencyKeys(at(100), 2)).isEqualTo(2);
    assertThat(store().forgetExpiredIdempotencyKeys(at(100), 2)).isEqualTo(1);
    assertThat(store().forgetExpiredIdempotencyKeys(at(100), 2)).isZero();
  }

  @Test
  @Timeout(30)
  default void concurrentRetentionSweepsDeleteEachJobOnce() throws Exception {
    List<Job> done = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      done.add(succeeded(job("t" + i).build(), at(i)));
    }
    AtomicInteger deleted = new AtomicInteger();

    Concurrently.run(
        4,
        () -> {
          int batch;
          do {
            batch = store().deleteFinished(JobState.SUCCEEDED, at(1000), 7);
            deleted.addAndGet(batch);
          } while (batch > 0);
        });

    assertThat(deleted).hasValue(done.size());
    assertThat(done).noneMatch(this::exists);
  }
}
