package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.QUEUE;
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
import org.junit.jupiter.api.Test;

/** Listing, statistics, running leases, and a closed store. */
public interface ReadContract extends JobStoreFixture {

  @Test
  default void listPagesNewestFirst() {
    List<Long> stored = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      stored.add(enqueue("t" + i).id());
    }

    JobPage first = store().list(new JobQuery(null, null, null, null, 2));
    JobPage second = store().list(new JobQuery(null, null, null, first.nextBeforeId(), 2));
    JobPage third = store().list(new JobQuery(null, null, null, second.nextBeforeId(), 2));

    assertThat(ids(first.jobs())).containsExactly(stored.get(4), stored.get(3));
    assertThat(ids(second.jobs())).containsExactly(stored.get(2), stored.get(1));
    assertThat(ids(third.jobs())).containsExactly(stored.get(0));
    assertThat(third.nextBeforeId()).isNull();
    assertThat(first.jobs()).allSatisfy(j -> assertThat(j.history()).isEmpty());
  }

  @Test
  default void listFiltersByQueueTypeAndState() {
    long mailEmail = enqueue(job("email").queue("mail").build()).id();
    long mailSms = enqueue(job("sms").queue("mail").build()).id();
    Job running = enqueue("email");
    long otherPending = enqueue(job("email").queue("other").build()).id();
    assertThat(leaseOne("w").id()).isEqualTo(running.id());

    assertThat(ids(store().list(new JobQuery("mail", null, null, null, 10)).jobs()))
        .containsExactly(mailSms, mailEmail);
    assertThat(ids(store().list(new JobQuery("mail", "email", null, null, 10)).jobs()))
        .containsExactly(mailEmail);
    assertThat(ids(store().list(new JobQuery(null, null, JobState.RUNNING, null, 10)).jobs()))
        .containsExactly(running.id());
    assertThat(ids(store().list(new JobQuery(null, "email", JobState.PENDING, null, 10)).jobs()))
        .containsExactly(otherPending, mailEmail);
    assertThat(ids(store().list(new JobQuery("other", "email", JobState.PENDING, null, 10)).jobs()))
        .containsExactly(otherPending);
  }

  @Test
  default void statsCountEveryStateAndTheOldestPendingAge() {
    store()
        .enqueue(
            List.of(
                job("old").runAt(at(-50)).build(),
                job("ready").runAt(at(-10)).build(),
                job("future").runAt(at(100)).build(),
                job("run").runAt(at(-100)).build(),
                job("done").runAt(at(-100)).build(),
                job("dead").runAt(at(-100)).build(),
                job("gone").runAt(at(-100)).build(),
                job("elsewhere").queue("other").build()),
            T0);
    List<Job> leased = store().lease(spec("w", 4, at(30)), T0);
    store().complete(leased.get(1).id(), claim(leased.get(1)), "w", null, null, T0);
    store().fail(leased.get(2).id(), claim(leased.get(2)), "w", PERMANENT, NEVER_RETRY, T0);
    store().release(leased.get(3).id(), claim(leased.get(3)), "w", "x", T0);
    store().cancel(leased.get(3).id(), T0);

    List<QueueCounts> stats = store().stats(null, T0);

    assertThat(stats)
        .containsExactly(
            new QueueCounts(QUEUE, 2, 1, 1, 1, 1, 1, Duration.ofSeconds(50)),
            new QueueCounts("other", 1, 0, 0, 0, 0, 0, Duration.ZERO));
    assertThat(store().stats("other", at(7)))
        .containsExactly(new QueueCounts("other", 1, 0, 0, 0, 0, 0, Duration.ofSeconds(7)));
  }

  @Test
  default void unfinishedStatsLeaveTheFinishedJobsOut() {
    store()
        .enqueue(
            List.of(
                job("ready").runAt(at(-10)).build(),
                job("future").runAt(at(100)).build(),
                job("run").runAt(at(-100)).build(),
                job("done").runAt(at(-100)).build()),
            T0);
    List<Job> leased = store().lease(spec("w", 2, at(30)), T0);
    store().complete(leased.get(1).id(), claim(leased.get(1)), "w", null, null, T0);
    enqueue(job("merge").dependsOn(leased.get(0).id()).build());
    Job dropped = enqueue(job("dropped").queue("finished").build());
    store().cancel(dropped.id(), T0);

    assertThat(store().unfinishedStats(null, T0))
        .containsExactly(new QueueCounts(QUEUE, 1, 1, 1, 0, 0, 0, Duration.ofSeconds(10), 1));
    assertThat(store().unfinishedStats("finished", T0))
        .containsExactly(new QueueCounts("finished", 0, 0, 0, 0, 0, 0, Duration.ZERO));
    assertThat(store().stats(null, T0))
        .containsExactly(
            new QueueCounts(QUEUE, 1, 1, 1, 1, 0, 0, Duration.ofSeconds(10), 1),
            new QueueCounts("finished", 0, 0, 0, 0, 0, 1, Duration.ZERO));
  }

  @Test
  default void statsTellDueFromScheduledJobsInEveryPriority() {
    store()
        .enqueue(
            List.of(
                job("high-due").priority(5).runAt(at(-20)).build(),
                job("high-later").priority(5).runAt(at(40)).build(),
                job("mid-oldest").runAt(at(-50)).build(),
                job("mid-later").runAt(at(10)).build(),
                job("mid-much-later").runAt(at(100)).build(),
                job("low-later").priority(-3).runAt(at(5)).build(),
                job("only-later").queue("later").runAt(at(1)).build()),
            T0);

    assertThat(store().stats(null, T0))
        .containsExactly(
            new QueueCounts(QUEUE, 2, 4, 0, 0, 0, 0, Duration.ofSeconds(50)),
            new QueueCounts("later", 0, 1, 0, 0, 0, 0, Duration.ZERO));
    assertThat(store().stats(QUEUE, at(10)))
        .containsExactly(new QueueCounts(QUEUE, 4, 2, 0, 0, 0, 0, Duration.ofSeconds(60)));
    assertThat(store().stats("later", at(2)))
        .containsExactly(new QueueCounts("later", 1, 0, 0, 0, 0, 0, Duration.ofSeconds(1)));
  }

  @Test
  default void statsOfAnUnknownQueueAreZero() {
    assertThat(store().stats("nothing-here", T0))
        .containsExactly(new QueueCounts("nothing-here", 0, 0, 0, 0, 0, 0, Duration.ZERO));
  }

  @Test
  default void runningLeasesListsEveryLeaseHeld() {
    store().enqueue(List.of(job("a").build(), job("b").build(), job("c").build()), T0);
    Job a = leaseOne("w", T0, at(30));
    Job b = leaseOne("w", T0, at(20));
    Job c = leaseOne("w", T0, at(40));
    store().complete(c.id(), claim(c), "w", null, null, at(1));

    assertThat(store().runningLeases())
        .containsExactlyInAnyOrder(
            new LeaseRef(a.id(), token(a), at(30)), new LeaseRef(b.id(), token(b), at(20)));
  }

  @Test
  default void closedStoreRefusesCalls() {
    Job stored = enqueue("t");
    store().close();

    assertThatThrownBy(() -> enqueue("t")).isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> store().get(stored.id()))
        .isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> store().lease(spec("w", 1, at(30)), T0))
        .isInstanceOf(StoreUnavailableException.class);
    store().close();
  }
}
