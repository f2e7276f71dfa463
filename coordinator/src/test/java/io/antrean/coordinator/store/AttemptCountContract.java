package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code attempts} counts the leases taken so far and never drops; releases are counted apart, so a
 * lease handed back unrun still spends no handler attempt.
 */
public interface AttemptCountContract extends JobStoreFixture {

  @Test
  default void attemptsKeepCountingLeasesAcrossAReleaseAndTheNextLease() {
    enqueue("t");
    Job first = leaseOne("w");
    Job released = store().release(first.id(), claim(first), "w", "shutdown", at(1));

    Job second = leaseOne("w", at(2), at(40));

    assertThat(released.attempts()).isEqualTo(1);
    assertThat(second.attempts()).isEqualTo(2);
    assertThat(second.releases()).isEqualTo(1);
    assertThat(second.handlerAttempts()).isEqualTo(1);
    assertThat(reload(first.id()).history()).extracting(a -> a.attempt()).containsExactly(1, 2);
  }

  @Test
  default void aCancelledRunningJobKeepsItsAttemptsOnceItsWorkerReleasesIt() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().cancel(leased.id(), at(1));

    Job cancelled = store().release(leased.id(), claim(leased), "w", "cancelled", at(2));

    assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
    assertThat(cancelled.attempts()).isEqualTo(1);
    assertThat(reload(leased.id()).attempts()).isEqualTo(1);
  }

  @Test
  default void aCancelledRunningJobKeepsItsAttemptsWhenItsLeaseExpires() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().cancel(leased.id(), at(1));

    List<Job> expired = store().expireLeases(at(31), 10);

    assertThat(expired).extracting(Job::state).containsExactly(JobState.CANCELLED);
    assertThat(expired.get(0).attempts()).isEqualTo(1);
  }

  @Test
  default void thePlannerCountsOnlyHandlerAttemptsNotReleasedLeases() {
    enqueue("t");
    Job first = leaseOne("w");
    store().release(first.id(), claim(first), "w", "shutdown", at(1));
    Job second = leaseOne("w", at(2), at(40));
    AtomicReference<Job> seen = new AtomicReference<>();

    store()
        .fail(
            second.id(),
            claim(second),
            "w",
            RETRYABLE,
            (job, failure, now) -> {
              seen.set(job);
              return NEVER_RETRY.nextRunAt(job, failure, now);
            },
            at(3));

    assertThat(seen.get().attempts()).isEqualTo(2);
    assertThat(seen.get().handlerAttempts()).isEqualTo(1);
  }

  @Test
  default void aRedriveStartsTheCountersAfresh() {
    enqueue("t");
    Job first = leaseOne("w");
    store().release(first.id(), claim(first), "w", "shutdown", at(1));
    Job second = leaseOne("w", at(2), at(40));
    store().fail(second.id(), claim(second), "w", PERMANENT, NEVER_RETRY, at(3));

    Job redriven = store().redrive(List.of(first.id()), at(4), Duration.ZERO, at(4)).get(0);

    assertThat(redriven.attempts()).isZero();
    assertThat(redriven.releases()).isZero();
    assertThat(redriven.handlerAttempts()).isZero();
  }
}
