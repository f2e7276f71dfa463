package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every lease has its own random lease id, and a call must present it with the fencing token: the
 * right token from the right worker with a guessed or missing lease id is refused like a stale
 * token, changes nothing and is recorded. The store keeps only the id's digest.
 */
public interface LeaseIdContract extends JobStoreFixture {
  Failure BROKEN = new Failure(ErrorKind.PERMANENT, "Broken", "no", null, null);

  /** The holder's own token with a lease id it was never given. */
  default LeaseClaim guessed(Job leased) {
    return new LeaseClaim(token(leased), LeaseId.generate());
  }

  @Test
  default void everyLeaseGetsItsOwnLeaseIdOfWhichTheStoreKeepsOnlyTheDigest() {
    enqueue("t");
    enqueue("t");
    enqueue("t");

    List<Job> leased = store().lease(spec("w", 3, at(30)), at(0));

    Set<String> texts =
        leased.stream().map(j -> j.lease().leaseId().text()).collect(Collectors.toSet());
    assertThat(texts).hasSize(3).allMatch(t -> t.matches("[0-9a-f]{32}"));
    for (Job job : leased) {
      LeaseId stored = reload(job.id()).lease().leaseId();
      assertThat(stored.matches(job.lease().leaseId())).isTrue();
      assertThatThrownBy(stored::text).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  default void theNextLeaseOfAJobHasANewLeaseId() {
    Job[] leases = takeOverAfterExpiry();

    assertThat(leases[1].lease().leaseId().matches(leases[0].lease().leaseId())).isFalse();
    assertThat(reload(leases[1].id()).lease().leaseId().matches(leases[1].lease().leaseId()))
        .isTrue();
  }

  @Test
  default void completeWithTheRightTokenButAGuessedLeaseIdIsRejectedAndRecorded() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store().complete(leased.id(), guessed(leased), "holder", utf8("x"), null, at(1)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "holder", token(leased));
    assertThat(store().complete(leased.id(), claim(leased), "holder", null, null, at(2)).state())
        .isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  default void completeWithoutALeaseIdIsRejectedAndRecorded() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());
    LeaseClaim tokenOnly = new LeaseClaim(token(leased), null);

    assertThatThrownBy(
            () -> store().complete(leased.id(), tokenOnly, "holder", utf8("x"), null, at(1)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "holder", token(leased));
  }

  @Test
  default void batchedCompleteWithAGuessedLeaseIdIsLeaseLost() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    List<CompletionOutcome> outcomes =
        store()
            .completeAll(
                "holder", List.of(new Completion(leased.id(), guessed(leased), null, null)), at(1));

    assertThat(outcomes).containsExactly(CompletionOutcome.leaseLost(leased.id()));
    assertOnlyRejectionRecorded(before, "holder", token(leased));
  }

  @Test
  default void heartbeatWithAGuessedLeaseIdIsLostAndRecorded() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    List<HeartbeatResult> results =
        store()
            .heartbeat(
                "holder",
                List.of(new LeaseRenewal(leased.id(), guessed(leased), "mine")),
                at(600),
                at(1));

    assertThat(results)
        .extracting(HeartbeatResult::status)
        .containsExactly(HeartbeatResult.Status.LOST);
    assertOnlyRejectionRecorded(before, "holder", token(leased));
  }

  @Test
  default void failAndReleaseWithAGuessedLeaseIdAreRejectedAndRecorded() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store().fail(leased.id(), guessed(leased), "holder", BROKEN, NEVER_RETRY, at(1)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "holder", token(leased));
    Job afterFail = reload(leased.id());
    assertThatThrownBy(
            () -> store().release(leased.id(), guessed(leased), "holder", "mine now", at(2)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(afterFail, "holder", token(leased));
  }

  @Test
  default void aRepeatedCompleteCountsAsARepeatOnlyWithTheLeaseId() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job done = store().complete(leased.id(), claim(leased), "holder", utf8("ok"), null, at(1));

    Job again = store().complete(leased.id(), claim(leased), "holder", utf8("ok"), null, at(2));
    assertThat(again.updatedAt()).isEqualTo(done.updatedAt());
    assertThatThrownBy(
            () -> store().complete(leased.id(), guessed(leased), "holder", utf8("ok"), null, at(3)))
        .isInstanceOf(LeaseLostException.class);
  }

  @Test
  default void aRepeatedFailCountsAsARepeatOnlyWithTheLeaseId() {
    enqueue("t");
    Job leased = leaseOne("holder");
    store().fail(leased.id(), claim(leased), "holder", BROKEN, NEVER_RETRY, at(1));

    assertThat(
            store().fail(leased.id(), claim(leased), "holder", BROKEN, NEVER_RETRY, at(2)).state())
        .isEqualTo(JobState.FAILED);
    assertThatThrownBy(
            () -> store().fail(leased.id(), guessed(leased), "holder", BROKEN, NEVER_RETRY, at(3)))
        .isInstanceOf(LeaseLostException.class);
  }
}
