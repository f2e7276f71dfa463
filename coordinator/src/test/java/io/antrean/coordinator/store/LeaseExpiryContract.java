package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Heartbeats that extend leases, and expiry by the timer path and the sweep. */
public interface LeaseExpiryContract extends JobStoreFixture {

  @Test
  default void expiredLeaseIsTakenBackAndLeasedAgainWithANewToken() {
    enqueue(job("t").runAt(at(-10)).build());
    Job first = leaseOne("worker-a", T0, at(30));

    assertThat(store().expireLeases(at(29), 10)).isEmpty();
    List<Job> expired = store().expireLeases(at(30), 10);

    assertThat(ids(expired)).containsExactly(first.id());
    Job back = expired.get(0);
    assertThat(back.state()).isEqualTo(JobState.PENDING);
    assertThat(back.runAt()).isEqualTo(at(30));
    assertThat(back.leaseExpiries()).isEqualTo(1);
    assertThat(back.lease()).isNull();
    Attempt attempt = reload(first.id()).history().get(0);
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.LEASE_EXPIRED);
    assertThat(attempt.endedAt()).isEqualTo(at(30));
    Job second = leaseOne("worker-b", at(31), at(60));
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(token(second)).isNotEqualTo(token(first));
    assertThat(second.attempts()).isEqualTo(2);
    assertThat(second.handlerAttempts()).isEqualTo(1);
  }

  @Test
  default void timerExpiryTakesBackOnlyTheCurrentExpiredLease() {
    enqueue("t");
    Job leased = leaseOne("w", T0, at(30));

    assertThat(store().expireLease(leased.id(), token(leased), at(29))).isEmpty();
    assertThat(store().expireLease(leased.id(), token(leased) + 1, at(31))).isEmpty();
    assertThat(reload(leased.id()).state()).isEqualTo(JobState.RUNNING);

    Optional<Job> expired = store().expireLease(leased.id(), token(leased), at(30));
    assertThat(expired).map(Job::state).contains(JobState.PENDING);
    assertThat(last(reload(leased.id())).outcome()).isEqualTo(AttemptOutcome.LEASE_EXPIRED);
  }

  @Test
  default void timerExpiryWithAnOldTokenDoesNothing() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    assertThat(store().expireLease(before.id(), token(leases[0]), at(100))).isEmpty();
    assertThat(reload(before.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  default void leaseExpiriesUpToTheLimitDeadLetterTheJob() {
    Job stored = enqueue(job("poison").maxLeaseExpiries(2).build());
    Job first = leaseOne("w", T0, at(10));
    store().expireLeases(at(10), 10);
    Job second = leaseOne("w", at(10), at(20));

    List<Job> expired = store().expireLeases(at(20), 10);

    assertThat(ids(expired)).containsExactly(stored.id());
    Job dead = reload(stored.id());
    assertThat(dead.state()).isEqualTo(JobState.FAILED);
    assertThat(dead.lastError()).isEqualTo("lease expired");
    assertThat(dead.leaseExpiries()).isEqualTo(2);
    assertThat(dead.finishedAt()).isEqualTo(at(20));
    assertThat(dead.history())
        .extracting(Attempt::outcome, Attempt::fencingToken)
        .containsExactly(
            tuple(AttemptOutcome.LEASE_EXPIRED, token(first)),
            tuple(AttemptOutcome.LEASE_EXPIRED, token(second)));
  }

  @Test
  default void sweepTakesBackAtMostTheLimitLongestExpiredFirst() {
    store().enqueue(List.of(job("a").build(), job("b").build(), job("c").build()), T0);
    long late = leaseOne("w", T0, at(30)).id();
    long early = leaseOne("w", T0, at(10)).id();
    long middle = leaseOne("w", T0, at(20)).id();

    assertThat(ids(store().expireLeases(at(40), 2))).containsExactly(early, middle);
    assertThat(ids(store().expireLeases(at(40), 2))).containsExactly(late);
  }

  @Test
  default void expiredLeaseOfAJobWithACancelRequestCancelsIt() {
    enqueue("t");
    Job leased = leaseOne("w", T0, at(30));
    store().cancel(leased.id(), at(1));

    assertThat(store().expireLeases(at(30), 10))
        .extracting(Job::state)
        .containsExactly(JobState.CANCELLED);
  }

  @Test
  default void heartbeatExtendsTheLeaseAndStoresProgress() {
    enqueue("t");
    Job leased = leaseOne("w", T0, at(30));

    List<HeartbeatResult> results =
        store()
            .heartbeat(
                "w", List.of(new LeaseRenewal(leased.id(), claim(leased), "40%")), at(60), at(20));

    assertThat(results)
        .containsExactly(
            new HeartbeatResult(
                leased.id(), token(leased), HeartbeatResult.Status.EXTENDED, at(60)));
    Job reloaded = reload(leased.id());
    assertThat(reloaded.lease().expiresAt()).isEqualTo(at(60));
    assertThat(reloaded.progress()).isEqualTo("40%");
    assertThat(store().expireLeases(at(59), 10)).isEmpty();
  }

  @Test
  default void heartbeatWithoutProgressKeepsTheLastProgress() {
    enqueue("t");
    Job leased = leaseOne("w");
    store()
        .heartbeat(
            "w", List.of(new LeaseRenewal(leased.id(), claim(leased), "40%")), at(60), at(1));

    store()
        .heartbeat("w", List.of(new LeaseRenewal(leased.id(), claim(leased), null)), at(70), at(2));

    assertThat(reload(leased.id()).progress()).isEqualTo("40%");
  }

  @Test
  default void heartbeatAnswersCancelRequestedOnceCancelIsAsked() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().cancel(leased.id(), at(1));

    List<HeartbeatResult> results =
        store()
            .heartbeat(
                "w", List.of(new LeaseRenewal(leased.id(), claim(leased), null)), at(60), at(2));

    assertThat(results)
        .containsExactly(
            new HeartbeatResult(
                leased.id(), token(leased), HeartbeatResult.Status.CANCEL_REQUESTED, at(60)));
  }

  @Test
  default void heartbeatRenewsAnExpiredLeaseThatWasNotTakenBack() {
    enqueue("t");
    Job leased = leaseOne("w", T0, at(30));

    List<HeartbeatResult> results =
        store()
            .heartbeat(
                "w", List.of(new LeaseRenewal(leased.id(), claim(leased), null)), at(90), at(45));

    assertThat(results)
        .extracting(HeartbeatResult::status)
        .containsExactly(HeartbeatResult.Status.EXTENDED);
    assertThat(store().expireLeases(at(60), 10)).isEmpty();
  }

  @Test
  default void heartbeatAnswersEachLeaseOnItsOwn() {
    store().enqueue(List.of(job("a").build(), job("b").build()), T0);
    Job a = leaseOne("w");
    Job b = leaseOne("w");
    store().complete(b.id(), claim(b), "w", null, null, at(1));

    List<HeartbeatResult> results =
        store()
            .heartbeat(
                "w",
                List.of(
                    new LeaseRenewal(a.id(), claim(a), null),
                    new LeaseRenewal(b.id(), claim(b), null)),
                at(60),
                at(2));

    assertThat(results)
        .extracting(HeartbeatResult::jobId, HeartbeatResult::status)
        .containsExactly(
            tuple(a.id(), HeartbeatResult.Status.EXTENDED),
            tuple(b.id(), HeartbeatResult.Status.LOST));
  }
}
