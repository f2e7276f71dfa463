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
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pausing and resuming queues: a paused queue takes jobs in but leases none. */
public interface QueueControlContract extends JobStoreFixture {

  @Test
  default void pausedQueueAcceptsEnqueuesButLeasesNone() {
    store().setQueuePaused(QUEUE, true, T0);

    Job stored = enqueue("t");

    assertThat(stored.state()).isEqualTo(JobState.PENDING);
    assertThat(store().lease(spec("w", 10, at(30)), at(1))).isEmpty();
    assertThat(reload(stored.id()).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  default void resumeMakesTheJobsLeasableAgain() {
    long id = enqueue("t").id();
    store().setQueuePaused(QUEUE, true, at(1));
    assertThat(store().lease(spec("w", 10, at(30)), at(2))).isEmpty();

    store().setQueuePaused(QUEUE, false, at(3));

    assertThat(ids(store().lease(spec("w", 10, at(30)), at(4)))).containsExactly(id);
    assertThat(store().pausedQueues()).isEmpty();
  }

  @Test
  default void pausingOneQueueDoesNotAffectAnother() {
    enqueue(job("t").queue("other").build());
    long mine = enqueue("t").id();

    store().setQueuePaused("other", true, T0);

    assertThat(ids(store().lease(spec("w", 10, at(30)), T0))).containsExactly(mine);
    assertThat(store().lease(new LeaseSpec("w", "other", Set.of(), 10, at(30)), T0)).isEmpty();
  }

  @Test
  default void pauseOfAQueueWithoutJobsIsRememberedForLaterJobs() {
    store().setQueuePaused("later", true, at(1));

    enqueue(job("t").queue("later").build());

    assertThat(store().lease(new LeaseSpec("w", "later", Set.of(), 10, at(30)), at(2))).isEmpty();
    assertThat(store().pausedQueues()).containsExactly(entry("later", at(1)));
  }

  @Test
  default void pauseAndResumeAreIdempotentAndKeepTheFirstPauseTime() {
    store().setQueuePaused("b", true, at(1));
    store().setQueuePaused("a", true, at(2));
    store().setQueuePaused("b", true, at(5));
    store().setQueuePaused("c", false, at(6));

    assertThat(store().pausedQueues()).containsExactly(entry("a", at(2)), entry("b", at(1)));

    store().setQueuePaused("b", false, at(7));
    store().setQueuePaused("b", false, at(8));
    assertThat(store().pausedQueues()).containsExactly(entry("a", at(2)));
  }

  @Test
  default void pauseLeavesRunningJobsAlone() {
    enqueue("t");
    Job running = leaseOne("w");

    store().setQueuePaused(QUEUE, true, at(1));

    Job done = store().complete(running.id(), claim(running), "w", null, null, at(2));
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(store().stats(QUEUE, at(2)))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.succeeded()).isEqualTo(1);
            });
    assertThat(List.copyOf(store().pausedQueues().keySet())).containsExactly(QUEUE);
  }
}
