package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.retryAt;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Complete, fail and release, and the rejection of stale fencing tokens. */
public interface WorkerReportContract extends JobStoreFixture {

  @Test
  default void completeStoresTheResultAndEndsTheAttempt() {
    enqueue("t");
    Job leased = leaseOne("w");

    Job done = store().complete(leased.id(), claim(leased), "w", utf8("ok"), "text/plain", at(5));

    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.result()).isEqualTo(utf8("ok"));
    assertThat(done.resultContentType()).isEqualTo("text/plain");
    assertThat(done.finishedAt()).isEqualTo(at(5));
    assertThat(done.lease()).isNull();
    Attempt attempt = last(reload(leased.id()));
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
    assertThat(attempt.endedAt()).isEqualTo(at(5));
    assertThat(store().lease(spec("w", 10, at(60)), at(10))).isEmpty();
  }

  @Test
  default void retriedJobGoesToTheTailBehindJobsEnqueuedBeforeTheFailure() {
    enqueue("first");
    Job failing = leaseOne("w");
    long waiting =
        store().enqueue(List.of(job("second").runAt(at(1)).build()), at(1)).get(0).job().id();

    Job retried = store().fail(failing.id(), claim(failing), "w", RETRYABLE, retryAt(at(2)), at(2));

    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.runAt()).isEqualTo(at(2));
    assertThat(retried.lastError()).isEqualTo("java.net.SocketTimeoutException: read timed out");
    assertThat(retried.lease()).isNull();
    assertThat(retried.finishedAt()).isNull();
    assertThat(ids(store().lease(spec("w", 10, at(60)), at(3))))
        .containsExactly(waiting, failing.id());
    Attempt attempt = reload(failing.id()).history().get(0);
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.FAILED_RETRYABLE);
    assertThat(attempt.errorKind()).isEqualTo(ErrorKind.RETRYABLE);
    assertThat(attempt.errorType()).isEqualTo("java.net.SocketTimeoutException");
    assertThat(attempt.errorMessage()).isEqualTo("read timed out");
    assertThat(attempt.stackTrace()).isEqualTo("at x");
    assertThat(attempt.endedAt()).isEqualTo(at(2));
  }

  @Test
  default void plannerSeesTheRunningJobWithTheFailedAttemptCounted() {
    enqueue("t");
    Job leased = leaseOne("w");
    AtomicReference<Job> seen = new AtomicReference<>();

    store()
        .fail(
            leased.id(),
            claim(leased),
            "w",
            RETRYABLE,
            (job, failure, now) -> {
              seen.set(job);
              return Optional.empty();
            },
            at(1));

    assertThat(seen.get().state()).isEqualTo(JobState.RUNNING);
    assertThat(seen.get().attempts()).isEqualTo(1);
    assertThat(seen.get().lease()).isEqualTo(leased.lease());
  }

  @Test
  default void permanentFailureWithoutARetryDeadLettersTheJob() {
    enqueue("t");
    Job leased = leaseOne("w");

    Job failed = store().fail(leased.id(), claim(leased), "w", PERMANENT, NEVER_RETRY, at(4));

    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.finishedAt()).isEqualTo(at(4));
    assertThat(failed.lastError()).isEqualTo("BadPayload: missing field 'to'");
    Attempt attempt = last(reload(leased.id()));
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.FAILED_PERMANENT);
    assertThat(attempt.errorKind()).isEqualTo(ErrorKind.PERMANENT);
  }

  @Test
  default void retryableFailureWithoutARetryLeftIsDeadLetteredAsRetryable() {
    enqueue("t");
    Job leased = leaseOne("w");

    Job failed = store().fail(leased.id(), claim(leased), "w", RETRYABLE, NEVER_RETRY, at(4));

    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(last(reload(leased.id())).outcome()).isEqualTo(AttemptOutcome.FAILED_RETRYABLE);
  }

  @Test
  default void plannerExceptionChangesNothing() {
    enqueue("t");
    Job leased = leaseOne("w");
    Job before = reload(leased.id());
    RetryPlanner broken =
        (job, failure, now) -> {
          throw new IllegalStateException("planner bug");
        };

    assertThatThrownBy(
            () -> store().fail(leased.id(), claim(leased), "w", RETRYABLE, broken, at(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("planner bug");
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  default void releaseSpendsNoHandlerAttemptAndKeepsTheJobsPlace() {
    enqueue("first");
    enqueue("second");
    Job released = leaseOne("w");

    Job after = store().release(released.id(), claim(released), "w", "worker shutting down", at(5));

    assertThat(after.state()).isEqualTo(JobState.PENDING);
    assertThat(after.attempts()).isEqualTo(1);
    assertThat(after.releases()).isEqualTo(1);
    assertThat(after.handlerAttempts()).isZero();
    assertThat(after.runAt()).isEqualTo(T0);
    assertThat(after.lease()).isNull();
    assertThat(ids(store().lease(spec("w", 1, at(60)), at(6)))).containsExactly(released.id());
    Attempt attempt = reload(released.id()).history().get(0);
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.RELEASED);
    assertThat(attempt.errorMessage()).isEqualTo("worker shutting down");
    assertThat(attempt.endedAt()).isEqualTo(at(5));
  }

  @Test
  default void releaseOfAJobWithACancelRequestCancelsIt() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().cancel(leased.id(), at(1));

    Job after = store().release(leased.id(), claim(leased), "w", "cancelled", at(2));

    assertThat(after.state()).isEqualTo(JobState.CANCELLED);
    assertThat(after.finishedAt()).isEqualTo(at(2));
    assertThat(last(reload(leased.id())).outcome()).isEqualTo(AttemptOutcome.CANCELLED);
  }

  @Test
  default void failureOfAJobWithACancelRequestIsNotRetried() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().cancel(leased.id(), at(1));

    Job after = store().fail(leased.id(), claim(leased), "w", RETRYABLE, retryAt(at(5)), at(2));

    assertThat(after.state()).isEqualTo(JobState.CANCELLED);
    assertThat(last(reload(leased.id())).outcome()).isEqualTo(AttemptOutcome.FAILED_RETRYABLE);
  }

  @Test
  default void staleHeartbeatIsLostAndOnlyRecorded() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    List<HeartbeatResult> results =
        store()
            .heartbeat(
                "worker-a",
                List.of(new LeaseRenewal(before.id(), claim(leases[0]), "50%")),
                at(90),
                at(40));

    assertThat(results)
        .containsExactly(
            new HeartbeatResult(before.id(), token(leases[0]), HeartbeatResult.Status.LOST, null));
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  default void staleCompleteIsRejectedAndOnlyRecorded() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    assertThatThrownBy(
            () ->
                store()
                    .complete(before.id(), claim(leases[0]), "worker-a", utf8("x"), null, at(40)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  default void staleFailIsRejectedAndOnlyRecorded() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    assertThatThrownBy(
            () ->
                store()
                    .fail(
                        before.id(), claim(leases[0]), "worker-a", PERMANENT, NEVER_RETRY, at(40)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  default void staleReleaseIsRejectedAndOnlyRecorded() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    assertThatThrownBy(
            () -> store().release(before.id(), claim(leases[0]), "worker-a", "shutdown", at(40)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  default void aHeartbeatCrossingItsHoldersOwnCompletionIsLostButNotRecorded() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().complete(leased.id(), claim(leased), "w", utf8("1"), null, at(1));
    Job before = reload(leased.id());

    List<HeartbeatResult> results =
        store()
            .heartbeat(
                "w", List.of(new LeaseRenewal(leased.id(), claim(leased), null)), at(90), at(2));

    assertThat(results)
        .containsExactly(
            new HeartbeatResult(leased.id(), token(leased), HeartbeatResult.Status.LOST, null));
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  default void finishingAFinishedJobAgainIsRejectedAsStale() {
    enqueue("t");
    Job leased = leaseOne("w");
    store().complete(leased.id(), claim(leased), "w", utf8("1"), null, at(1));
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store().complete(leased.id(), claim(leased), "w", utf8("2"), null, at(2)))
        .isInstanceOf(LeaseLostException.class)
        .satisfies(e -> assertThat(((LeaseLostException) e).jobId()).isEqualTo(leased.id()));
    assertOnlyRejectionRecorded(before, "w", token(leased));
  }

  @Test
  default void unknownJobIsNotFound() {
    long missing = 4242;

    assertThatThrownBy(
            () -> store().complete(missing, new LeaseClaim(1, null), "w", null, null, T0))
        .isInstanceOf(JobNotFoundException.class);
    assertThatThrownBy(
            () -> store().fail(missing, new LeaseClaim(1, null), "w", RETRYABLE, NEVER_RETRY, T0))
        .isInstanceOf(JobNotFoundException.class);
    assertThatThrownBy(() -> store().release(missing, new LeaseClaim(1, null), "w", "r", T0))
        .isInstanceOf(JobNotFoundException.class);
    assertThatThrownBy(() -> store().cancel(missing, T0)).isInstanceOf(JobNotFoundException.class);
    assertThat(store().get(missing)).isEmpty();
    assertThat(store().expireLease(missing, 1, T0)).isEmpty();
    assertThat(
            store()
                .heartbeat(
                    "w",
                    List.of(new LeaseRenewal(missing, new LeaseClaim(1, null), null)),
                    at(30),
                    T0))
        .extracting(HeartbeatResult::status)
        .containsExactly(HeartbeatResult.Status.LOST);
  }
}
