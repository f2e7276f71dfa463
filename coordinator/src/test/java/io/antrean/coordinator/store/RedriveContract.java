package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Redriving dead letters: a fresh budget, a kept past, a staggered start, and atomicity. */
public interface RedriveContract extends JobStoreFixture {

  @Test
  default void redriveGivesAFreshBudgetAndKeepsHistoryKeyTokenAndLastError() {
    long id = enqueue(job("email").key("order-1").maxLeaseExpiries(2).build()).id();
    leaseOne("w", T0, at(30));
    assertThat(store().expireLeases(at(31), 10)).hasSize(1);
    Job leased = leaseOne("w", at(32), at(60));
    store().heartbeat("w", List.of(new LeaseRenewal(id, claim(leased), "50%")), at(60), at(33));
    store().cancel(id, at(34));
    store().fail(id, claim(leased), "w", PERMANENT, NEVER_RETRY, at(35));
    Job dead = reload(id);
    assertThat(dead.attempts()).isEqualTo(2);
    assertThat(dead.cancelRequested()).isTrue();

    List<Job> redriven = store().redrive(List.of(id), at(100), Duration.ofSeconds(1), at(50));

    assertThat(redriven).singleElement().satisfies(j -> assertThat(j.history()).isEmpty());
    Job fresh = reload(id);
    assertThat(fresh)
        .usingRecursiveComparison()
        .ignoringFields("history")
        .isEqualTo(redriven.get(0));
    assertThat(fresh.state()).isEqualTo(JobState.PENDING);
    assertThat(fresh.runAt()).isEqualTo(at(100));
    assertThat(fresh.attempts()).isZero();
    assertThat(fresh.leaseExpiries()).isZero();
    assertThat(fresh.cancelRequested()).isFalse();
    assertThat(fresh.finishedAt()).isNull();
    assertThat(fresh.lease()).isNull();
    assertThat(fresh.result()).isNull();
    assertThat(fresh.progress()).isNull();
    assertThat(fresh.updatedAt()).isEqualTo(at(50));
    assertThat(fresh.createdAt()).isEqualTo(T0);
    assertThat(fresh.lastError()).isEqualTo(dead.lastError());
    assertThat(fresh.idempotencyKey()).isEqualTo("order-1");
    assertThat(fresh.history().subList(0, dead.history().size()))
        .usingRecursiveFieldByFieldElementComparator()
        .isEqualTo(dead.history());
    assertThat(fresh.history()).hasSize(dead.history().size() + 1);
    assertThat(last(fresh))
        .isEqualTo(
            new Attempt(
                0,
                "admin",
                token(leased),
                at(50),
                at(50),
                AttemptOutcome.REDRIVEN,
                null,
                null,
                null,
                null));
    EnqueueResult again =
        store().enqueue(List.of(job("email").key("order-1").build()), at(60)).get(0);
    assertThat(again.deduplicated()).isTrue();
    assertThat(again.job().id()).isEqualTo(id);
  }

  @Test
  default void redriveStaggersRunTimesAndSkipsIdsThatAreNotDeadLetters() {
    Job first = deadLetter("first", at(1));
    Job second = deadLetter("second", at(2));
    Job third = deadLetter("third", at(3));
    Job done = succeeded(job("done").build(), at(4));
    Job pending = enqueue(job("pending").runAt(at(1000)).build());
    long missing = 4242;

    List<Job> redriven =
        store()
            .redrive(
                List.of(
                    third.id(),
                    pending.id(),
                    first.id(),
                    missing,
                    done.id(),
                    second.id(),
                    first.id()),
                at(100),
                Duration.ofSeconds(10),
                at(50));

    assertThat(redriven)
        .extracting(Job::id, Job::runAt, Job::state)
        .containsExactly(
            tuple(third.id(), at(100), JobState.PENDING),
            tuple(first.id(), at(110), JobState.PENDING),
            tuple(second.id(), at(120), JobState.PENDING));
    assertThat(reload(done.id()).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(reload(pending.id()).runAt()).isEqualTo(at(1000));
    assertThat(reload(first.id()).history())
        .filteredOn(a -> a.outcome() == AttemptOutcome.REDRIVEN)
        .hasSize(1);
    assertThat(store().listDeadLetters(DeadLetterContract.all(10)).jobs()).isEmpty();
    assertThat(ids(store().lease(spec("w", 10, at(200)), at(110))))
        .containsExactly(third.id(), first.id());
    assertThat(store().redrive(List.of(missing, done.id()), at(1), Duration.ZERO, at(1))).isEmpty();
  }

  @Test
  default void redrivenJobLeasesWithAHigherTokenAndItsHistoryShowsBothLives() {
    Job dead = deadLetter("t", at(1));
    long oldToken = reload(dead.id()).history().get(0).fencingToken();
    store().redrive(List.of(dead.id()), at(10), Duration.ZERO, at(5));

    Job leased = leaseOne("w", at(10), at(40));
    store().complete(leased.id(), claim(leased), "w", utf8("ok"), "text/plain", at(11));

    assertThat(token(leased)).isGreaterThan(oldToken);
    assertThat(leased.attempts()).isEqualTo(1);
    Job done = reload(dead.id());
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.history())
        .extracting(Attempt::attempt, Attempt::outcome, Attempt::fencingToken)
        .containsExactly(
            tuple(1, AttemptOutcome.FAILED_PERMANENT, oldToken),
            tuple(0, AttemptOutcome.REDRIVEN, oldToken),
            tuple(1, AttemptOutcome.SUCCEEDED, token(leased)));
  }

  @Test
  default void redrivenJobThatKeepsFailingSpendsAWholeNewBudget() {
    RetryPlanner budget =
        (job, failure, now) ->
            job.handlerAttempts() < job.retryPolicy().maxAttempts()
                ? Optional.of(now)
                : Optional.empty();
    long id =
        enqueue(
                job("t")
                    .retryPolicy(new RetryPolicy(3, Duration.ZERO, 1.0, Duration.ZERO, 3))
                    .build())
            .id();

    assertThat(failUntilDeadLettered(id, budget, at(1))).isEqualTo(3);
    store().redrive(List.of(id), at(10), Duration.ZERO, at(10));
    assertThat(failUntilDeadLettered(id, budget, at(10))).isEqualTo(3);

    assertThat(reload(id).history())
        .extracting(Attempt::attempt)
        .containsExactly(1, 2, 3, 0, 1, 2, 3);
  }

  /** Leases and fails the job until it is dead-lettered; returns how many leases that took. */
  private int failUntilDeadLettered(long id, RetryPlanner planner, Instant now) {
    int leases = 0;
    while (reload(id).state() != JobState.FAILED) {
      assertThat(leases).as("leases before the job is dead-lettered").isLessThan(10);
      Job leased = leaseOne("w", now, now.plusSeconds(30));
      store().fail(id, claim(leased), "w", RETRYABLE, planner, now);
      leases++;
    }
    return leases;
  }

  @Test
  @Timeout(30)
  default void concurrentRedrivesOfTheSameJobsRedriveEachOnce() throws Exception {
    List<Long> dead = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      dead.add(deadLetter("t" + i, at(1)).id());
    }
    ConcurrentLinkedQueue<Long> redriven = new ConcurrentLinkedQueue<>();

    Concurrently.run(
        8,
        () ->
            store().redrive(dead, at(10), Duration.ZERO, at(5)).forEach(j -> redriven.add(j.id())));

    assertThat(redriven).containsExactlyInAnyOrderElementsOf(dead);
    for (long id : dead) {
      assertThat(reload(id).history())
          .filteredOn(a -> a.outcome() == AttemptOutcome.REDRIVEN)
          .hasSize(1);
    }
  }
}
