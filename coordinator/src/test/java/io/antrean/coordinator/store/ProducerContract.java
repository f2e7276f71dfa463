package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Enqueue, idempotency keys and cancellation, for every {@link JobStore}. */
public interface ProducerContract extends JobStoreFixture {

  @Test
  default void aTraceParentRoundTripsThroughEnqueueGetAndLease() {
    String plainParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    String keyedParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
    List<EnqueueResult> results =
        store()
            .enqueue(
                List.of(
                    job("email").traceParent(plainParent).build(),
                    job("email").key("k-trace").traceParent(keyedParent).build(),
                    job("email").build()),
                T0);

    assertThat(results.get(0).job().traceParent()).isEqualTo(plainParent);
    assertThat(reload(results.get(0).job().id()).traceParent()).isEqualTo(plainParent);
    assertThat(reload(results.get(1).job().id()).traceParent()).isEqualTo(keyedParent);
    assertThat(reload(results.get(2).job().id()).traceParent()).isNull();
    List<Job> leased = store().lease(spec("w", 3, at(30)), T0);
    assertThat(leased)
        .extracting(Job::traceParent)
        .containsExactlyInAnyOrder(plainParent, keyedParent, null);
  }

  @Test
  default void enqueueStoresAPendingJobWithEveryField() {
    RetryPolicy policy = new RetryPolicy(7, Duration.ofMillis(250), 1.5, Duration.ofMinutes(2), 2);
    NewJob newJob =
        job("email")
            .queue("mail")
            .payload("{\"to\":\"a@b\"}")
            .priority(5)
            .runAt(at(10))
            .key("k-1")
            .retryPolicy(policy)
            .build();

    EnqueueResult result = store().enqueue(List.of(newJob), T0).get(0);

    assertThat(result.deduplicated()).isFalse();
    Job stored = reload(result.job().id());
    assertThat(stored).usingRecursiveComparison().isEqualTo(result.job());
    assertThat(stored.queue()).isEqualTo("mail");
    assertThat(stored.type()).isEqualTo("email");
    assertThat(stored.payload()).isEqualTo(utf8("{\"to\":\"a@b\"}"));
    assertThat(stored.contentType()).isEqualTo("application/json");
    assertThat(stored.priority()).isEqualTo(5);
    assertThat(stored.runAt()).isEqualTo(at(10));
    assertThat(stored.idempotencyKey()).isEqualTo("k-1");
    assertThat(stored.retryPolicy()).isEqualTo(policy);
    assertThat(stored.state()).isEqualTo(JobState.PENDING);
    assertThat(stored.attempts()).isZero();
    assertThat(stored.leaseExpiries()).isZero();
    assertThat(stored.createdAt()).isEqualTo(T0);
    assertThat(stored.updatedAt()).isEqualTo(T0);
    assertThat(stored.finishedAt()).isNull();
    assertThat(stored.lease()).isNull();
    assertThat(stored.result()).isNull();
    assertThat(stored.lastError()).isNull();
    assertThat(stored.cancelRequested()).isFalse();
    assertThat(stored.history()).isEmpty();
  }

  @Test
  default void enqueueAnswersOneResultPerJobInOrder() {
    List<EnqueueResult> results =
        store().enqueue(List.of(job("a").build(), job("b").build(), job("c").build()), T0);

    assertThat(results).extracting(r -> r.job().type()).containsExactly("a", "b", "c");
    assertThat(results).noneMatch(EnqueueResult::deduplicated);
  }

  @Test
  default void idsIncreaseAndAreNeverReused() {
    Set<Long> seen = new HashSet<>();
    long previous = 0;
    for (int i = 0; i < 5; i++) {
      long id = enqueue("t" + i).id();
      assertThat(id).isGreaterThan(previous);
      assertThat(seen.add(id)).isTrue();
      previous = id;
    }
    Job finished = leaseOne("w");
    store().complete(finished.id(), claim(finished), "w", null, null, at(1));

    assertThat(enqueue("after").id()).isGreaterThan(previous);
  }

  @Test
  default void emptyPayloadAndEmptyResultRoundTrip() {
    Job stored = enqueue(job("empty").payload(new byte[0], "application/octet-stream").build());
    Job leased = leaseOne("w");
    store()
        .complete(leased.id(), claim(leased), "w", new byte[0], "application/octet-stream", at(1));

    Job done = reload(stored.id());
    assertThat(done.payload()).isEmpty();
    assertThat(done.contentType()).isEqualTo("application/octet-stream");
    assertThat(done.result()).isNotNull().isEmpty();
  }

  @Test
  default void timestampsRoundTripAtMicrosecondPrecision() {
    Instant now = Instant.parse("2026-03-01T12:00:00.123456789Z");
    Instant runAt = Instant.parse("2026-03-01T12:00:00.000001999Z");
    Instant beforeEpoch = Instant.parse("1969-12-31T23:59:59.999999500Z");
    Job early = store().enqueue(List.of(job("old").runAt(beforeEpoch).build()), now).get(0).job();
    Job stored = store().enqueue(List.of(job("t").runAt(runAt).build()), now).get(0).job();

    assertThat(reload(stored.id()).runAt()).isEqualTo(Instant.parse("2026-03-01T12:00:00.000001Z"));
    assertThat(reload(stored.id()).createdAt()).isEqualTo(now.truncatedTo(ChronoUnit.MICROS));
    assertThat(reload(early.id()).runAt()).isEqualTo(beforeEpoch.truncatedTo(ChronoUnit.MICROS));
    assertThat(stored.createdAt()).isEqualTo(reload(stored.id()).createdAt());
  }

  @Test
  default void returnedJobsAreCopies() {
    Job stored = enqueue(job("t").payload("{\"n\":1}").build());
    stored.payload()[0] = 'X';
    reload(stored.id()).payload()[0] = 'Y';
    Job leased = leaseOne("w");
    leased.payload()[0] = 'Z';

    assertThat(reload(stored.id()).payload()).isEqualTo(utf8("{\"n\":1}"));
  }

  @Test
  @Timeout(30)
  default void concurrentEnqueuersAllGetDistinctIds() throws Exception {
    int threads = 8;
    int perThread = 25;
    ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    Concurrently.run(
        threads,
        () -> {
          for (int i = 0; i < perThread; i++) {
            ids.add(enqueue("t").id());
          }
        });

    assertThat(ids).hasSize(threads * perThread).doesNotHaveDuplicates();
  }

  @Test
  default void rememberedIdempotencyKeyReturnsTheExistingJob() {
    Job first = enqueue(job("email").key("order-1").build());

    EnqueueResult again =
        store().enqueue(List.of(job("email").key("order-1").build()), at(10)).get(0);

    assertThat(again.deduplicated()).isTrue();
    assertThat(again.job().id()).isEqualTo(first.id());
    assertThat(store().list(new JobQuery(null, null, null, null, 10)).jobs()).hasSize(1);
  }

  @Test
  default void idempotencyConflictStoresNothingOfTheBatch() {
    Job first = enqueue(job("email").key("order-1").payload("{\"v\":1}").build());

    List<NewJob> batch =
        List.of(
            job("other").build(),
            job("email").key("order-1").payload("{\"v\":2}").build(),
            job("third").build());
    assertThatThrownBy(() -> store().enqueue(batch, at(1)))
        .isInstanceOf(IdempotencyConflictException.class)
        .hasMessageContaining("order-1");

    assertThat(ids(store().list(new JobQuery(null, null, null, null, 10)).jobs()))
        .containsExactly(first.id());
  }

  @Test
  default void sameKeyWithAnotherTypeConflicts() {
    enqueue(job("email").key("k").build());

    assertThatThrownBy(() -> store().enqueue(List.of(job("sms").key("k").build()), at(1)))
        .isInstanceOf(IdempotencyConflictException.class);
  }

  @Test
  default void expiredIdempotencyKeyCanBeReused() {
    Job first = enqueue(job("email").key("k", at(60)).payload("{\"v\":1}").build());

    EnqueueResult reused =
        store()
            .enqueue(List.of(job("email").key("k", at(200)).payload("{\"v\":2}").build()), at(60))
            .get(0);

    assertThat(reused.deduplicated()).isFalse();
    assertThat(reused.job().id()).isNotEqualTo(first.id());
    EnqueueResult again =
        store()
            .enqueue(List.of(job("email").key("k").payload("{\"v\":2}").build()), at(100))
            .get(0);
    assertThat(again.deduplicated()).isTrue();
    assertThat(again.job().id()).isEqualTo(reused.job().id());
  }

  @Test
  default void sameKeyTwiceInOneBatchDeduplicatesToTheFirst() {
    List<EnqueueResult> results =
        store().enqueue(List.of(job("email").key("k").build(), job("email").key("k").build()), T0);

    assertThat(results.get(0).deduplicated()).isFalse();
    assertThat(results.get(1).deduplicated()).isTrue();
    assertThat(results.get(1).job().id()).isEqualTo(results.get(0).job().id());
  }

  @Test
  default void idempotencyKeysAreScopedByQueue() {
    Job inA = enqueue(job("email").queue("a").key("k").build());
    Job inB = enqueue(job("email").queue("b").key("k").payload("{\"other\":true}").build());

    assertThat(inB.id()).isNotEqualTo(inA.id());
  }

  @Test
  default void cancelOfAPendingJobCancelsItAtOnce() {
    Job stored = enqueue("t");

    Job cancelled = store().cancel(stored.id(), at(3));

    assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
    assertThat(cancelled.finishedAt()).isEqualTo(at(3));
    assertThat(store().lease(spec("w", 10, at(60)), at(4))).isEmpty();
  }

  @Test
  default void cancelOfARunningJobFlagsItForItsWorker() {
    enqueue("t");
    Job leased = leaseOne("w");

    Job flagged = store().cancel(leased.id(), at(3));

    assertThat(flagged.state()).isEqualTo(JobState.RUNNING);
    assertThat(flagged.cancelRequested()).isTrue();
    assertThat(flagged.lease()).isEqualTo(leased.lease());
    assertThat(reload(leased.id()).cancelRequested()).isTrue();
  }

  @Test
  default void cancelOfAFinishedJobLeavesItAsItIs() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().complete(leased.id(), claim(leased), "w", null, null, at(1));
    Job before = reload(leased.id());

    Job after = store().cancel(leased.id(), at(2));

    assertThat(after.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  default void cancelOfACancelledJobLeavesItAsItIs() {
    Job cancelled = store().cancel(enqueue("t").id(), at(1));
    Job before = reload(cancelled.id());

    Job after = store().cancel(cancelled.id(), at(2));

    assertThat(after.state()).isEqualTo(JobState.CANCELLED);
    assertThat(after.finishedAt()).isEqualTo(at(1));
    assertThat(reload(cancelled.id())).usingRecursiveComparison().isEqualTo(before);
  }
}
