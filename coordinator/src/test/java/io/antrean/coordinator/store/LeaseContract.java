package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.retryAt;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which jobs a lease takes, in which order, and that no two leasers share one. */
public interface LeaseContract extends JobStoreFixture {

  @Test
  default void leaseTakesHighestPriorityFirstThenEarliestRunAtThenLowestId() {
    long low = enqueue(job("low").priority(1).build()).id();
    long lateHigh = enqueue(job("late-high").priority(9).runAt(at(-1)).build()).id();
    long earlyHigh = enqueue(job("early-high").priority(9).runAt(at(-5)).build()).id();
    long sameTimeHighA = enqueue(job("high-a").priority(9).runAt(at(-1)).build()).id();
    long middle = enqueue(job("middle").priority(5).build()).id();

    List<Job> leased = store().lease(spec("w", 4, at(30)), T0);

    assertThat(ids(leased)).containsExactly(earlyHigh, lateHigh, sameTimeHighA, middle);
    assertThat(ids(store().lease(spec("w", 4, at(30)), T0))).containsExactly(low);
  }

  @Test
  default void jobIsNotLeasedBeforeItsRunAt() {
    Job delayed = enqueue(job("later").runAt(at(60)).build());

    assertThat(store().lease(spec("w", 10, at(30)), at(59))).isEmpty();
    assertThat(ids(store().lease(spec("w", 10, at(90)), at(60)))).containsExactly(delayed.id());
  }

  @Test
  default void leaseTakesOnlyTheRequestedQueue() {
    enqueue(job("t").queue("other").build());
    long mine = enqueue("t").id();

    assertThat(ids(store().lease(spec("w", 10, at(30)), T0))).containsExactly(mine);
  }

  @Test
  default void leaseTakesOnlyTheRequestedTypes() {
    long email = enqueue("email").id();
    enqueue("resize");
    long sms = enqueue("sms").id();

    LeaseSpec spec = new LeaseSpec("w", QUEUE, Set.of("email", "sms"), 10, at(30));
    assertThat(ids(store().lease(spec, T0))).containsExactly(email, sms);
  }

  @Test
  default void leaseCountsTheAttemptIssuesANewTokenAndRecordsARunningAttempt() {
    Job stored = enqueue("email");

    Job leased = leaseOne("worker-1", at(1), at(31));

    assertThat(leased.id()).isEqualTo(stored.id());
    assertThat(leased.state()).isEqualTo(JobState.RUNNING);
    assertThat(leased.attempts()).isEqualTo(1);
    assertThat(leased.lease().workerId()).isEqualTo("worker-1");
    assertThat(leased.lease().expiresAt()).isEqualTo(at(31));
    assertThat(leased.updatedAt()).isEqualTo(at(1));
    Job reloaded = reload(stored.id());
    assertThat(reloaded.lease()).isEqualTo(leased.lease());
    assertThat(reloaded.history()).hasSize(1);
    Attempt attempt = reloaded.history().get(0);
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.RUNNING);
    assertThat(attempt.attempt()).isEqualTo(1);
    assertThat(attempt.workerId()).isEqualTo("worker-1");
    assertThat(attempt.fencingToken()).isEqualTo(token(leased));
    assertThat(attempt.leasedAt()).isEqualTo(at(1));
    assertThat(attempt.endedAt()).isNull();
  }

  @Test
  default void everyLeaseOfAJobGetsAHigherToken() {
    enqueue("t");
    Job first = leaseOne("w");
    store().release(first.id(), claim(first), "w", "shutdown", at(1));
    Job second = leaseOne("w", at(2), at(30));
    store().fail(second.id(), claim(second), "w", RETRYABLE, retryAt(at(3)), at(3));
    Job third = leaseOne("w", at(3), at(30));

    assertThat(token(second)).isGreaterThan(token(first));
    assertThat(token(third)).isGreaterThan(token(second));
  }

  @Test
  @Timeout(30)
  default void concurrentLeasersNeverShareAJob() throws Exception {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      jobs.add(job("t" + i).build());
    }
    store().enqueue(jobs, T0);
    ConcurrentLinkedQueue<Long> leased = new ConcurrentLinkedQueue<>();

    Concurrently.run(
        8,
        () -> {
          String worker = Thread.currentThread().getName();
          List<Job> batch;
          do {
            batch = store().lease(spec(worker, 3, at(30)), T0);
            batch.forEach(j -> leased.add(j.id()));
          } while (!batch.isEmpty());
        });

    assertThat(leased).hasSize(200).doesNotHaveDuplicates();
    assertThat(store().lease(spec("late", 10, at(30)), T0)).isEmpty();
  }
}
