package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** completeAll judges each completion as complete would, and the async forms keep the contract. */
public interface BatchedCompletionContract extends JobStoreFixture {

  @Test
  default void completeAllJudgesEachItemOnItsOwnAndAnswersInOrder() {
    Job[] takenOver = takeOverAfterExpiry();
    Job staleBefore = reload(takenOver[1].id());
    enqueue("a");
    enqueue("b");
    List<Job> leased = store().lease(spec("worker-a", 10, at(90)), at(40));
    assertThat(leased).hasSize(2);

    List<CompletionOutcome> outcomes =
        store()
            .completeAll(
                "worker-a",
                List.of(
                    new Completion(leased.get(1).id(), claim(leased.get(1)), utf8("b!"), "text"),
                    new Completion(takenOver[0].id(), claim(takenOver[0]), null, null),
                    new Completion(424242, new LeaseClaim(1, null), null, null),
                    new Completion(leased.get(0).id(), claim(leased.get(0)), null, null)),
                at(45));

    assertThat(outcomes)
        .extracting(CompletionOutcome::jobId, CompletionOutcome::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                leased.get(1).id(), CompletionOutcome.Status.COMPLETED),
            org.assertj.core.groups.Tuple.tuple(
                takenOver[0].id(), CompletionOutcome.Status.LEASE_LOST),
            org.assertj.core.groups.Tuple.tuple(424242L, CompletionOutcome.Status.NOT_FOUND),
            org.assertj.core.groups.Tuple.tuple(
                leased.get(0).id(), CompletionOutcome.Status.COMPLETED));
    Job b = reload(leased.get(1).id());
    assertThat(b.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(b.result()).isEqualTo(utf8("b!"));
    assertThat(b.resultContentType()).isEqualTo("text");
    assertThat(b.finishedAt()).isEqualTo(at(45));
    assertThat(last(b).outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
    assertThat(outcomes)
        .extracting(CompletionOutcome::queue, CompletionOutcome::repeat)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(b.queue(), false),
            org.assertj.core.groups.Tuple.tuple(null, false),
            org.assertj.core.groups.Tuple.tuple(null, false),
            org.assertj.core.groups.Tuple.tuple(leased.get(0).queue(), false));
    Job a = reload(leased.get(0).id());
    assertThat(a.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(a.result()).isNull();
    assertThat(a.resultContentType()).isNull();
    assertThat(last(a).outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
    assertThat(last(a).endedAt()).isEqualTo(at(45));
    assertOnlyRejectionRecorded(staleBefore, "worker-a", token(takenOver[0]));
  }

  @Test
  default void aBatchNamesEachJobItCompletedWithItsOwnQueue() {
    enqueue(job("resize").queue("images").build());
    enqueue(job("send").queue("mail").build());
    Job image = store().lease(new LeaseSpec("w", "images", Set.of(), 1, at(30)), at(0)).get(0);
    Job mail = store().lease(new LeaseSpec("w", "mail", Set.of(), 1, at(30)), at(0)).get(0);

    List<CompletionOutcome> outcomes =
        store()
            .completeAll(
                "w",
                List.of(
                    new Completion(mail.id(), claim(mail), null, null),
                    new Completion(image.id(), claim(image), null, null)),
                at(1));

    assertThat(outcomes)
        .extracting(CompletionOutcome::jobId, CompletionOutcome::queue)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(mail.id(), "mail"),
            org.assertj.core.groups.Tuple.tuple(image.id(), "images"));
  }

  @Test
  default void aLeaseAndACompleteBatchOfManyJobsTreatEachJobAsAlone() {
    // 100 rows: more than one statement's worth where a store writes them set-wise.
    int count = 100;
    for (int i = 0; i < count; i++) {
      enqueue(job("t").priority(i % 3).build());
    }
    List<Job> leased = store().lease(spec("w", count, at(90)), at(10));

    assertThat(leased).hasSize(count);
    assertThat(leased)
        .isSortedAccordingTo(
            java.util.Comparator.comparingInt(Job::priority).reversed().thenComparingLong(Job::id));
    assertThat(leased.stream().map(j -> j.lease().leaseId()).distinct()).hasSize(count);
    for (Job job : leased) {
      Job stored = reload(job.id());
      assertThat(stored.state()).isEqualTo(JobState.RUNNING);
      assertThat(stored.lease().fencingToken()).isEqualTo(token(job));
      assertThat(stored.lease().leaseId()).isEqualTo(job.lease().leaseId());
      assertThat(stored.history()).hasSize(1);
      assertThat(last(stored).outcome()).isEqualTo(AttemptOutcome.RUNNING);
      assertThat(last(stored).fencingToken()).isEqualTo(token(job));
    }

    Job guessed = leased.get(17);
    Job staleToken = leased.get(83);
    Job stalesBefore = reload(staleToken.id());
    List<Completion> completions = new java.util.ArrayList<>();
    for (Job job : leased) {
      LeaseClaim claim =
          job == guessed
              ? new LeaseClaim(token(job), io.antrean.coordinator.job.LeaseId.generate())
              : job == staleToken
                  ? new LeaseClaim(token(job) - 1, job.lease().leaseId())
                  : claim(job);
      completions.add(new Completion(job.id(), claim, utf8("r" + job.id()), "text/plain"));
    }
    List<CompletionOutcome> outcomes = store().completeAll("w", completions, at(20));

    assertThat(outcomes)
        .extracting(CompletionOutcome::jobId)
        .containsExactlyElementsOf(ids(leased));
    for (int i = 0; i < count; i++) {
      Job job = leased.get(i);
      Job stored = reload(job.id());
      if (job == guessed || job == staleToken) {
        assertThat(outcomes.get(i).status()).isEqualTo(CompletionOutcome.Status.LEASE_LOST);
        assertThat(stored.state()).isEqualTo(JobState.RUNNING);
        assertThat(stored.history().get(0).outcome()).isEqualTo(AttemptOutcome.RUNNING);
      } else {
        assertThat(outcomes.get(i).status()).isEqualTo(CompletionOutcome.Status.COMPLETED);
        assertThat(outcomes.get(i).queue()).isEqualTo(job.queue());
        assertThat(outcomes.get(i).repeat()).isFalse();
        assertThat(stored.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(stored.result()).isEqualTo(utf8("r" + job.id()));
        assertThat(stored.resultContentType()).isEqualTo("text/plain");
        assertThat(stored.finishedAt()).isEqualTo(at(20));
        assertThat(stored.history()).hasSize(1);
        assertThat(last(stored).outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
        assertThat(last(stored).endedAt()).isEqualTo(at(20));
      }
    }
    assertOnlyRejectionRecorded(stalesBefore, "w", token(staleToken) - 1);
  }

  @Test
  default void completeAllRefusesAJobNamedTwiceAndStoresNothing() {
    enqueue("a");
    Job leased = leaseOne("w");

    assertThatThrownBy(
            () ->
                store()
                    .completeAll(
                        "w",
                        List.of(
                            new Completion(leased.id(), claim(leased), null, null),
                            new Completion(leased.id(), claim(leased), null, null)),
                        at(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("twice");
    assertThat(reload(leased.id()).state()).isEqualTo(JobState.RUNNING);
  }

  @Test
  default void completeAllOfNothingIsNothing() {
    assertThat(store().completeAll("w", List.of(), at(1))).isEmpty();
  }

  @Test
  default void asyncFormsAnswerWhatTheSynchronousOnesWould() throws Exception {
    List<EnqueueResult> enqueued =
        store()
            .enqueueAsync(List.of(job("a").build(), job("b").build()), at(1))
            .get(10, TimeUnit.SECONDS);
    assertThat(enqueued).extracting(r -> r.job().type()).containsExactly("a", "b");

    List<Job> leased = store().leaseAsync(spec("w", 1, at(60)), at(2)).get(10, TimeUnit.SECONDS);
    assertThat(leased).extracting(Job::type).containsExactly("a");

    Job done =
        store()
            .completeAsync(leased.get(0).id(), claim(leased.get(0)), "w", utf8("r"), null, at(3))
            .get(10, TimeUnit.SECONDS);
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);

    assertThat(
            store().completeAsync(leased.get(0).id(), claim(leased.get(0)), "w", null, null, at(4)))
        .failsWithin(10, TimeUnit.SECONDS)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withCauseInstanceOf(LeaseLostException.class);

    Job second = leaseOne("w", at(5), at(60));
    assertThat(
            store()
                .completeAllAsync(
                    "w", List.of(new Completion(second.id(), claim(second), null, null)), at(5))
                .get(10, TimeUnit.SECONDS))
        .extracting(CompletionOutcome::status)
        .containsExactly(CompletionOutcome.Status.COMPLETED);
  }
}
