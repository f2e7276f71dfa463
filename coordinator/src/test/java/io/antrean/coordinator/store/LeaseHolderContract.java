package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A lease is bound to the worker id that took it: the current fencing token presented under any
 * other worker id (with authentication the id carries the identity's name, so another identity too)
 * is refused like a stale one, changes nothing and is recorded.
 */
public interface LeaseHolderContract extends JobStoreFixture {

  @Test
  default void anotherWorkersHeartbeatWithTheCurrentTokenIsLostAndRecorded() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    List<HeartbeatResult> results =
        store()
            .heartbeat(
                "intruder",
                List.of(new LeaseRenewal(leased.id(), claim(leased), null)),
                at(600),
                at(1));

    assertThat(results)
        .containsExactly(
            new HeartbeatResult(leased.id(), token(leased), HeartbeatResult.Status.LOST, null));
    assertOnlyRejectionRecorded(before, "intruder", token(leased));
    assertThat(reload(leased.id()).lease().expiresAt()).isEqualTo(at(30));
  }

  @Test
  default void anotherWorkersCompleteWithTheCurrentTokenIsRejectedAndRecorded() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store().complete(leased.id(), claim(leased), "intruder", utf8("x"), null, at(1)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "intruder", token(leased));
    Job done = store().complete(leased.id(), claim(leased), "holder", utf8("ok"), null, at(2));
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  default void anotherWorkersBatchedCompleteWithTheCurrentTokenIsLeaseLost() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    List<CompletionOutcome> outcomes =
        store()
            .completeAll(
                "intruder",
                List.of(new Completion(leased.id(), claim(leased), utf8("x"), null)),
                at(1));

    assertThat(outcomes).containsExactly(CompletionOutcome.leaseLost(leased.id()));
    assertOnlyRejectionRecorded(before, "intruder", token(leased));
  }

  @Test
  default void anotherWorkersFailWithTheCurrentTokenIsRejectedAndRecorded() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    assertThatThrownBy(
            () ->
                store().fail(leased.id(), claim(leased), "intruder", PERMANENT, NEVER_RETRY, at(1)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "intruder", token(leased));
  }

  @Test
  default void anotherWorkersReleaseWithTheCurrentTokenIsRejectedAndRecorded() {
    enqueue("t");
    Job leased = leaseOne("holder");
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store().release(leased.id(), claim(leased), "intruder", "mine now", at(1)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "intruder", token(leased));
  }
}
