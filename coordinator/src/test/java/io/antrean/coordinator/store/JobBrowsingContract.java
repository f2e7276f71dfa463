package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job browser's filters: error text, creation time, idempotency key and oldest first. */
public interface JobBrowsingContract extends JobStoreFixture {

  private Job enqueueAt(NewJob newJob, Instant now) {
    return store().enqueue(List.of(newJob), now).get(0).job();
  }

  private List<Long> list(JobQuery query) {
    return store().list(query).jobs().stream().map(Job::id).toList();
  }

  private static JobQuery filter(
      String errorContains, Instant createdAfter, Instant createdBefore, String key) {
    return new JobQuery(
        null, null, null, errorContains, createdAfter, createdBefore, key, false, null, 10);
  }

  @Test
  default void listFiltersByErrorTextInAnyCase() {
    Job bounced = deadLetter(job("email").queue("a").build(), at(1), "Mailbox FULL at mx1");
    deadLetter(job("email").queue("b").build(), at(2), "connection reset");
    enqueue("email");

    assertThat(list(filter("mailbox full", null, null, null))).containsExactly(bounced.id());
    assertThat(list(filter("nothing like it", null, null, null))).isEmpty();
  }

  @Test
  default void listFiltersByCreationTimeFromInclusiveToExclusive() {
    long early = enqueueAt(job("t").build(), at(-60)).id();
    long onTime = enqueueAt(job("t").build(), T0).id();
    long late = enqueueAt(job("t").build(), at(60)).id();

    assertThat(list(filter(null, T0, null, null))).containsExactly(late, onTime);
    assertThat(list(filter(null, null, T0, null))).containsExactly(early);
    assertThat(list(filter(null, at(-1), at(60), null))).containsExactly(onTime);
  }

  @Test
  default void listFindsTheJobOfAnIdempotencyKey() {
    long keyed = enqueue(job("t").key("order-17").build()).id();
    enqueue(job("t").key("order-18").build());
    enqueue("t");

    assertThat(list(filter(null, null, null, "order-17"))).containsExactly(keyed);
    assertThat(list(filter(null, null, null, "order-1"))).as("exact match only").isEmpty();
  }

  @Test
  default void listPagesOldestFirstWithTheSameTokens() {
    long a = enqueue("t").id();
    long b = enqueue("t").id();
    long c = enqueue("other").id();
    long d = enqueue("t").id();

    JobPage first =
        store().list(new JobQuery(null, "t", null, null, null, null, null, true, null, 2));
    JobPage second =
        store()
            .list(
                new JobQuery(
                    null, "t", null, null, null, null, null, true, first.nextBeforeId(), 2));

    assertThat(first.jobs()).extracting(Job::id).containsExactly(a, b);
    assertThat(second.jobs()).extracting(Job::id).containsExactly(d);
    assertThat(second.nextBeforeId()).isNull();
    assertThat(c).isGreaterThan(b);
  }

  @Test
  default void filtersCombineWithQueueAndState() {
    Job dead = deadLetter(job("email").queue("mail").build(), at(1), "bad address");
    enqueueAt(job("email").queue("mail").build(), at(5));

    assertThat(
            list(
                new JobQuery(
                    "mail",
                    "email",
                    JobState.FAILED,
                    "ADDRESS",
                    T0,
                    at(10),
                    null,
                    false,
                    null,
                    10)))
        .containsExactly(dead.id());
    assertThat(
            list(
                new JobQuery(
                    "mail",
                    "email",
                    JobState.PENDING,
                    "ADDRESS",
                    null,
                    null,
                    null,
                    false,
                    null,
                    10)))
        .isEmpty();
  }
}
