package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Unique while active: one PENDING, RUNNING or WAITING job per queue and unique key. */
public interface UniqueKeyContract extends JobStoreFixture {

  @Test
  default void secondJobWithAnActiveKeyIsRefusedNamingTheHolder() {
    Job first = enqueue(job("sync").unique("customer-7", false).build());

    assertThatThrownBy(() -> enqueue(job("sync").unique("customer-7", false).build()))
        .isInstanceOfSatisfying(
            UniqueKeyConflictException.class,
            e -> {
              assertThat(e.existingJobId()).isEqualTo(first.id());
              assertThat(e.uniqueKey()).isEqualTo("customer-7");
            });
    assertThat(store().list(new JobQuery(null, null, null, null, 10)).jobs()).hasSize(1);
  }

  @Test
  default void aJobWaitingForItsDependenciesHoldsItsKeyUntilItEnds() {
    Job dependency = enqueue("fetch");
    Job waiting =
        enqueue(job("sync").unique("customer-7", false).dependsOn(dependency.id()).build());
    assertThat(waiting.state()).isEqualTo(JobState.WAITING);

    assertThatThrownBy(() -> enqueue(job("sync").unique("customer-7", false).build()))
        .isInstanceOfSatisfying(
            UniqueKeyConflictException.class,
            e -> assertThat(e.existingJobId()).isEqualTo(waiting.id()));
    EnqueueResult existing =
        store().enqueue(List.of(job("sync").unique("customer-7", true).build()), at(1)).get(0);
    assertThat(existing.deduplicated()).isTrue();
    assertThat(existing.job().id()).isEqualTo(waiting.id());

    store().cancel(waiting.id(), at(2));
    assertThat(enqueue(job("sync").unique("customer-7", false).build()).id())
        .isNotEqualTo(waiting.id());
  }

  @Test
  default void returnExistingAnswersWithTheActiveJob() {
    Job first = enqueue(job("sync").unique("customer-7", true).build());
    leaseOne("w");

    EnqueueResult again =
        store().enqueue(List.of(job("sync").unique("customer-7", true).build()), at(1)).get(0);

    assertThat(again.deduplicated()).isTrue();
    assertThat(again.job().id()).isEqualTo(first.id());
    assertThat(again.job().state()).isEqualTo(JobState.RUNNING);
  }

  @Test
  default void keyIsFreeAgainOnceTheJobSucceedsFailsOrIsCancelled() {
    Job first = enqueue(job("sync").unique("k", false).build());
    Job leased = leaseOne("w");
    store().complete(first.id(), LeaseClaim.of(leased), "w", null, null, at(1));

    Job second = enqueue(job("sync").unique("k", false).build());
    store().cancel(second.id(), at(2));
    Job third = enqueue(job("sync").unique("k", false).build());
    Job leasedThird = leaseOne("w", at(3), at(30));
    store().fail(third.id(), LeaseClaim.of(leasedThird), "w", PERMANENT, NEVER_RETRY, at(4));
    Job fourth = enqueue(job("sync").unique("k", false).build());

    assertThat(List.of(first.id(), second.id(), third.id(), fourth.id())).doesNotHaveDuplicates();
    assertThat(reload(fourth.id()).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  default void redriveSkipsAJobWhoseKeyAnotherActiveJobHolds() {
    Job dead = deadLetter(job("sync").unique("k", false).build(), at(1), "boom");
    Job holder = enqueue(job("sync").unique("k", false).build());

    assertThat(store().redrive(List.of(dead.id()), at(2), java.time.Duration.ZERO, at(2)))
        .isEmpty();
    store().cancel(holder.id(), at(3));
    assertThat(store().redrive(List.of(dead.id()), at(4), java.time.Duration.ZERO, at(4)))
        .extracting(Job::id)
        .containsExactly(dead.id());
  }

  @Test
  default void keysAreScopedToTheQueueAndIndependentOfIdempotencyKeys() {
    enqueue(job("sync").unique("k", false).build());

    Job otherQueue = enqueue(job("sync").queue("other").unique("k", false).build());
    Job plain = enqueue(job("sync").key("k").build());

    assertThat(otherQueue.state()).isEqualTo(JobState.PENDING);
    assertThat(plain.state()).isEqualTo(JobState.PENDING);
  }

  @Test
  default void aClashInsideOneBatchRollsTheBatchBack() {
    assertThatThrownBy(
            () ->
                store()
                    .enqueue(
                        List.of(
                            job("a").build(),
                            job("b").unique("k", false).build(),
                            job("c").unique("k", false).build()),
                        T0))
        .isInstanceOf(UniqueKeyConflictException.class);

    assertThat(store().list(new JobQuery(null, null, null, null, 10)).jobs()).isEmpty();
  }

  @Test
  @Timeout(60)
  default void concurrentEnqueuesWithOneKeyStoreExactlyOneJob() throws Exception {
    AtomicInteger refused = new AtomicInteger();
    ConcurrentHashMap<Long, Boolean> returned = new ConcurrentHashMap<>();

    Concurrently.run(
        8,
        () -> {
          try {
            returned.put(enqueue(job("sync").unique("k", false).build()).id(), true);
          } catch (UniqueKeyConflictException e) {
            refused.incrementAndGet();
          }
        });

    assertThat(returned).hasSize(1);
    assertThat(refused).hasValue(7);
    assertThat(store().list(new JobQuery(null, null, null, null, 10)).jobs()).hasSize(1);
  }
}
