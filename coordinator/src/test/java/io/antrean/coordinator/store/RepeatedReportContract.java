package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.retryAt;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A worker repeating its own accepted Complete or Fail (same token, same outcome: its first answer
 * was lost) gets the same OK, recorded once; anything else with a stale token is still rejected.
 */
public interface RepeatedReportContract extends JobStoreFixture {

  @Test
  default void aRepeatedCompleteOfTheSameResultIsAnsweredAgainAndRecordedOnce() {
    enqueue("t");
    Job leased = leaseOne("w");
    Job first = store().complete(leased.id(), claim(leased), "w", utf8("ok"), "text/plain", at(1));
    Job before = reload(leased.id());

    Job again = store().complete(leased.id(), claim(leased), "w", utf8("ok"), "text/plain", at(2));

    assertThat(again).usingRecursiveComparison().isEqualTo(first);
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
    assertThat(before.history()).hasSize(1);
  }

  @Test
  default void aRepeatedCompleteWithoutAResultIsAnsweredAgain() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().complete(leased.id(), claim(leased), "w", null, null, at(1));
    Job before = reload(leased.id());

    Job again = store().complete(leased.id(), claim(leased), "w", null, null, at(2));

    assertThat(again.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  default void aRepeatedCompleteWithAnotherContentTypeIsLeaseLost() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().complete(leased.id(), claim(leased), "w", utf8("ok"), "text/plain", at(1));
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store().complete(leased.id(), claim(leased), "w", utf8("ok"), "text/html", at(2)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "w", token(leased));
  }

  @Test
  default void theSameCompleteFromAnotherWorkerIsLeaseLost() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().complete(leased.id(), claim(leased), "w", utf8("ok"), null, at(1));
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store().complete(leased.id(), claim(leased), "other", utf8("ok"), null, at(2)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "other", token(leased));
  }

  @Test
  default void theSameResultUnderAnOlderTokenIsLeaseLost() {
    Job[] leases = takeOverAfterExpiry();
    store().complete(leases[1].id(), claim(leases[1]), "worker-b", utf8("ok"), null, at(40));
    Job before = reload(leases[1].id());

    assertThatThrownBy(
            () ->
                store()
                    .complete(
                        leases[0].id(), claim(leases[0]), "worker-a", utf8("ok"), null, at(41)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  default void aCompleteAfterTheWorkersOwnFailIsLeaseLost() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().fail(leased.id(), claim(leased), "w", PERMANENT, NEVER_RETRY, at(1));
    Job before = reload(leased.id());

    assertThatThrownBy(() -> store().complete(leased.id(), claim(leased), "w", null, null, at(2)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "w", token(leased));
  }

  @Test
  default void aRepeatedRetryableFailIsAnsweredAgainAndRecordedOnce() {
    enqueue("t");
    Job leased = leaseOne("w");
    Job first = store().fail(leased.id(), claim(leased), "w", RETRYABLE, retryAt(at(5)), at(1));
    Job before = reload(leased.id());

    Job again = store().fail(leased.id(), claim(leased), "w", RETRYABLE, retryAt(at(9)), at(2));

    assertThat(again).usingRecursiveComparison().isEqualTo(first);
    assertThat(again.state()).isEqualTo(JobState.PENDING);
    assertThat(again.runAt()).isEqualTo(at(5));
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  default void aRepeatedPermanentFailIsAnsweredAgainAndRecordedOnce() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().fail(leased.id(), claim(leased), "w", PERMANENT, NEVER_RETRY, at(1));
    Job before = reload(leased.id());

    Job again = store().fail(leased.id(), claim(leased), "w", PERMANENT, NEVER_RETRY, at(2));

    assertThat(again.state()).isEqualTo(JobState.FAILED);
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  default void aRepeatedFailAfterTheJobWasLeasedAgainChangesNothing() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().fail(leased.id(), claim(leased), "w", RETRYABLE, retryAt(at(1)), at(1));
    Job next = leaseOne("w2", at(2), at(40));
    Job before = reload(leased.id());

    Job again = store().fail(leased.id(), claim(leased), "w", RETRYABLE, retryAt(at(9)), at(3));

    assertThat(again.state()).isEqualTo(JobState.RUNNING);
    assertThat(again.lease()).isEqualTo(next.lease());
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  default void aFailWithAnotherErrorIsLeaseLost() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().fail(leased.id(), claim(leased), "w", RETRYABLE, retryAt(at(5)), at(1));
    Job before = reload(leased.id());
    Failure other =
        new Failure(ErrorKind.RETRYABLE, RETRYABLE.errorType(), "connection reset", null, null);

    assertThatThrownBy(
            () -> store().fail(leased.id(), claim(leased), "w", other, retryAt(at(5)), at(2)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "w", token(leased));
  }

  @Test
  default void theSameFailFromAnotherWorkerIsLeaseLost() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().fail(leased.id(), claim(leased), "w", PERMANENT, NEVER_RETRY, at(1));
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store().fail(leased.id(), claim(leased), "other", PERMANENT, NEVER_RETRY, at(2)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "other", token(leased));
  }

  @Test
  default void aBatchRepeatingItsOwnItemsAnswersThemCompletedAndRecordsThemOnce() {
    enqueue("a");
    enqueue("b");
    List<Job> leased = store().lease(TestJobs.spec("w", 2, at(30)), at(0));
    Job a = leased.get(0);
    Job b = leased.get(1);
    store().completeAll("w", List.of(new Completion(a.id(), claim(a), utf8("A"), null)), at(1));
    Job aBefore = reload(a.id());

    List<CompletionOutcome> outcomes =
        store()
            .completeAll(
                "w",
                List.of(
                    new Completion(a.id(), claim(a), utf8("A"), null),
                    new Completion(b.id(), claim(b), utf8("B"), null)),
                at(2));

    assertThat(outcomes)
        .extracting(CompletionOutcome::status)
        .containsExactly(CompletionOutcome.Status.COMPLETED, CompletionOutcome.Status.COMPLETED);
    assertThat(outcomes)
        .extracting(CompletionOutcome::queue, CompletionOutcome::repeat)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(a.queue(), true),
            org.assertj.core.groups.Tuple.tuple(b.queue(), false));
    assertThat(reload(a.id())).usingRecursiveComparison().isEqualTo(aBefore);
    assertThat(reload(b.id()).state()).isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  default void aBatchItemWithAnotherResultThanTheAcceptedOneIsLeaseLost() {
    enqueue("a");
    Job a = leaseOne("w");
    store().completeAll("w", List.of(new Completion(a.id(), claim(a), utf8("A"), null)), at(1));
    Job before = reload(a.id());

    List<CompletionOutcome> outcomes =
        store().completeAll("w", List.of(new Completion(a.id(), claim(a), utf8("Z"), null)), at(2));

    assertThat(outcomes)
        .extracting(CompletionOutcome::status)
        .containsExactly(CompletionOutcome.Status.LEASE_LOST);
    assertOnlyRejectionRecorded(before, "w", token(a));
  }
}
