package io.antrean.coordinator.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One test per row of the state table in docs/design.md, without a database. */
class JobLifecycleTest {
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  static final RetryPolicy POLICY =
      new RetryPolicy(3, Duration.ofSeconds(1), 2, Duration.ofMinutes(1), 2);
  static final Failure RETRYABLE = new Failure(ErrorKind.RETRYABLE, "Timeout", "slow", null, null);
  static final Failure PERMANENT = new Failure(ErrorKind.PERMANENT, "BadInput", null, null, null);

  static JobStatus pending(Instant runAt) {
    return new JobStatus(JobState.PENDING, runAt, 0, 0, 0, false, null, POLICY);
  }

  /** RUNNING under token 7 held by w1 until a minute from NOW, on its first attempt. */
  static JobStatus running(boolean cancelRequested, int leaseExpiries) {
    return new JobStatus(
        JobState.RUNNING,
        NOW.minusSeconds(10),
        1 + leaseExpiries,
        leaseExpiries,
        0,
        cancelRequested,
        new LeaseInfo("w1", 7, NOW.plusSeconds(60)),
        POLICY);
  }

  static JobStatus finished(JobState state) {
    return new JobStatus(state, NOW, 1, 0, 0, false, null, POLICY);
  }

  @Nested
  class Lease {
    @Test
    void aDuePendingJobIsLeasedWithItsAttemptCounted() {
      Decision<LeaseGrant> d = JobLifecycle.lease(pending(NOW), "w1", NOW.plusSeconds(30), NOW);

      assertThat(d.change()).isEqualTo(new LeaseGrant("w1", NOW.plusSeconds(30), 1));
    }

    @Test
    void aPendingJobIsNotLeasedBeforeItsRunTime() {
      assertThat(JobLifecycle.lease(pending(NOW.plusMillis(1)), "w1", NOW, NOW).refusal())
          .isEqualTo(Refusal.NOT_DUE);
    }

    @ParameterizedTest
    @EnumSource(
        value = JobState.class,
        names = {"SUCCEEDED", "FAILED", "CANCELLED"})
    void onlyPendingJobsAreLeased(JobState state) {
      assertThat(JobLifecycle.lease(finished(state), "w1", NOW, NOW).refusal())
          .isEqualTo(Refusal.NOT_PENDING);
      assertThat(JobLifecycle.lease(running(false, 0), "w1", NOW, NOW).refusal())
          .isEqualTo(Refusal.NOT_PENDING);
    }
  }

  @Nested
  class Heartbeat {
    @Test
    void theHolderExtendsItsLease() {
      Decision<Renewal> d = JobLifecycle.heartbeat(running(false, 0), 7, "w1", NOW.plusSeconds(90));

      assertThat(d.change()).isEqualTo(new Renewal(NOW.plusSeconds(90), false));
    }

    @Test
    void theHolderHearsOfARequestedCancellation() {
      assertThat(JobLifecycle.heartbeat(running(true, 0), 7, "w1", NOW).change().cancelRequested())
          .isTrue();
    }

    @Test
    void aStaleTokenOrAnotherWorkerIsLost() {
      assertThat(JobLifecycle.heartbeat(running(false, 0), 6, "w1", NOW).refusal())
          .isEqualTo(Refusal.LEASE_LOST);
      assertThat(JobLifecycle.heartbeat(running(false, 0), 7, "w2", NOW).refusal())
          .isEqualTo(Refusal.LEASE_LOST);
      assertThat(JobLifecycle.heartbeat(pending(NOW), 7, "w1", NOW).refusal())
          .isEqualTo(Refusal.LEASE_LOST);
    }
  }

  @Nested
  class Complete {
    @Test
    void theHolderCompletesTheJob() {
      LeaseEnd end = JobLifecycle.complete(running(false, 0), 7, "w1").change();

      assertThat(end.move()).isEqualTo(JobMove.to(JobState.SUCCEEDED));
      assertThat(end.attempt()).isEqualTo(AttemptEnd.SUCCEEDED);
    }

    @Test
    void aCompletionWinsOverARequestedCancellation() {
      assertThat(JobLifecycle.complete(running(true, 0), 7, "w1").change().move().to())
          .isEqualTo(JobState.SUCCEEDED);
    }

    @Test
    void aStaleTokenCannotComplete() {
      assertThat(JobLifecycle.complete(running(false, 0), 8, "w1").refusal())
          .isEqualTo(Refusal.LEASE_LOST);
      assertThat(JobLifecycle.complete(finished(JobState.SUCCEEDED), 7, "w1").refusal())
          .isEqualTo(Refusal.LEASE_LOST);
    }
  }

  @Nested
  class Fail {
    @Test
    void aPlannedRetryReturnsTheJobToPendingAtTheRetryTime() {
      LeaseEnd end =
          JobLifecycle.fail(
                  running(false, 0), 7, "w1", RETRYABLE, () -> Optional.of(NOW.plusSeconds(5)))
              .change();

      assertThat(end.move())
          .isEqualTo(
              JobMove.to(JobState.PENDING).runAt(NOW.plusSeconds(5)).lastError("Timeout: slow"));
      assertThat(end.attempt())
          .isEqualTo(new AttemptEnd(AttemptOutcome.FAILED_RETRYABLE, RETRYABLE, null));
    }

    @Test
    void aRequestedCancellationWinsOverTheRetry() {
      LeaseEnd end =
          JobLifecycle.fail(running(true, 0), 7, "w1", RETRYABLE, () -> Optional.of(NOW)).change();

      assertThat(end.move().to()).isEqualTo(JobState.CANCELLED);
      assertThat(end.attempt().outcome()).isEqualTo(AttemptOutcome.FAILED_RETRYABLE);
    }

    @Test
    void aPermanentFailureWithoutARetryIsDeadLettered() {
      LeaseEnd end =
          JobLifecycle.fail(running(false, 0), 7, "w1", PERMANENT, Optional::empty).change();

      assertThat(end.move()).isEqualTo(JobMove.to(JobState.FAILED).lastError("BadInput"));
      assertThat(end.attempt().outcome()).isEqualTo(AttemptOutcome.FAILED_PERMANENT);
    }

    @Test
    void aRetryableFailureWithoutARetryIsDeadLetteredAsRetryable() {
      LeaseEnd end =
          JobLifecycle.fail(running(true, 0), 7, "w1", RETRYABLE, Optional::empty).change();

      assertThat(end.move().to()).isEqualTo(JobState.FAILED);
      assertThat(end.attempt().outcome()).isEqualTo(AttemptOutcome.FAILED_RETRYABLE);
    }

    @Test
    void aStaleTokenCannotFailAndThePlanIsNeverAsked() {
      AtomicBoolean asked = new AtomicBoolean();
      Decision<LeaseEnd> d =
          JobLifecycle.fail(
              running(false, 0),
              7,
              "w2",
              RETRYABLE,
              () -> {
                asked.set(true);
                return Optional.of(NOW);
              });

      assertThat(d.refusal()).isEqualTo(Refusal.LEASE_LOST);
      assertThat(asked).isFalse();
    }

    @Test
    void theLastErrorNamesWhatIsKnownOfTheFailure() {
      assertThat(new Failure(ErrorKind.RETRYABLE, null, "boom", null, null).summary())
          .isEqualTo("boom");
      assertThat(new Failure(ErrorKind.RETRYABLE, null, null, null, null).summary())
          .isEqualTo("retryable failure");
      assertThat(new Failure(ErrorKind.PERMANENT, null, null, null, null).summary())
          .isEqualTo("permanent failure");
    }
  }

  @Nested
  class Release {
    @Test
    void theHolderHandsTheJobBackWithoutSpendingAHandlerAttempt() {
      LeaseEnd end = JobLifecycle.release(running(false, 0), 7, "w1", "shutdown").change();

      assertThat(end.move()).isEqualTo(JobMove.to(JobState.PENDING).releases(1));
      assertThat(end.attempt())
          .isEqualTo(new AttemptEnd(AttemptOutcome.RELEASED, null, "shutdown"));
    }

    @Test
    void aReleasedJobWithARequestedCancellationIsCancelled() {
      LeaseEnd end = JobLifecycle.release(running(true, 0), 7, "w1", "stop").change();

      assertThat(end.move()).isEqualTo(JobMove.to(JobState.CANCELLED).releases(1));
      assertThat(end.attempt().outcome()).isEqualTo(AttemptOutcome.CANCELLED);
    }

    @Test
    void aStaleTokenCannotRelease() {
      assertThat(JobLifecycle.release(running(false, 0), 1, "w1", "x").refusal())
          .isEqualTo(Refusal.LEASE_LOST);
    }
  }

  @Nested
  class Expire {
    static final Instant LAPSED = NOW.plusSeconds(60);

    @Test
    void aLapsedLeaseReturnsTheJobToTheTail() {
      LeaseEnd end = JobLifecycle.expire(running(false, 0), 7, LAPSED).change();

      assertThat(end.move()).isEqualTo(JobMove.to(JobState.PENDING).runAt(LAPSED).leaseExpiries(1));
      assertThat(end.attempt())
          .isEqualTo(
              new AttemptEnd(
                  AttemptOutcome.LEASE_EXPIRED, null, JobLifecycle.EXPIRED_LEASE_REASON));
    }

    @Test
    void theLastAllowedExpiryDeadLettersTheJob() {
      LeaseEnd end = JobLifecycle.expire(running(false, 1), 7, LAPSED).change();

      assertThat(end.move())
          .isEqualTo(
              JobMove.to(JobState.FAILED)
                  .lastError(JobLifecycle.EXPIRED_LEASE_REASON)
                  .leaseExpiries(1));
    }

    @Test
    void anExpiredJobWithARequestedCancellationIsCancelled() {
      assertThat(JobLifecycle.expire(running(true, 1), 7, LAPSED).change().move().to())
          .isEqualTo(JobState.CANCELLED);
    }

    @Test
    void aLeaseStillValidIsNotTakenBack() {
      assertThat(JobLifecycle.expire(running(false, 0), 7, LAPSED.minusNanos(1)).refusal())
          .isEqualTo(Refusal.NOT_EXPIRED);
    }

    @Test
    void anExpiryForAnotherLeaseChangesNothing() {
      assertThat(JobLifecycle.expire(running(false, 0), 6, LAPSED).refusal())
          .isEqualTo(Refusal.LEASE_LOST);
      assertThat(JobLifecycle.expire(pending(NOW), 7, LAPSED).refusal())
          .isEqualTo(Refusal.LEASE_LOST);
    }
  }

  @Nested
  class Cancel {
    @Test
    void aPendingJobIsCancelledAtOnce() {
      assertThat(JobLifecycle.cancel(pending(NOW)).change()).isEqualTo(Cancellation.CANCEL_NOW);
      assertThat(JobLifecycle.CANCEL_NOW).isEqualTo(JobMove.to(JobState.CANCELLED));
    }

    @Test
    void aRunningJobIsFlaggedForItsWorkerOnce() {
      assertThat(JobLifecycle.cancel(running(false, 0)).change())
          .isEqualTo(Cancellation.ASK_WORKER);
      assertThat(JobLifecycle.cancel(running(true, 0)).change())
          .isEqualTo(Cancellation.ALREADY_ASKED);
    }

    @ParameterizedTest
    @EnumSource(
        value = JobState.class,
        names = {"SUCCEEDED", "FAILED", "CANCELLED"})
    void aFinishedJobCannotBeCancelled(JobState state) {
      assertThat(JobLifecycle.cancel(finished(state)).refusal()).isEqualTo(Refusal.JOB_FINISHED);
    }
  }

  @Nested
  class Dependencies {
    static JobStatus waiting(Instant runAt) {
      return new JobStatus(JobState.WAITING, runAt, 0, 0, 0, false, null, POLICY);
    }

    @Test
    void aWaitingJobIsNeverLeased() {
      assertThat(JobLifecycle.lease(waiting(NOW), "w1", NOW.plusSeconds(30), NOW).refusal())
          .isEqualTo(Refusal.NOT_PENDING);
    }

    @Test
    void aWaitingJobWhoseDependenciesAreMetIsDueNowUnlessItsOwnRunTimeIsLater() {
      assertThat(JobLifecycle.dependenciesMet(waiting(NOW.minusSeconds(5)), NOW).change())
          .isEqualTo(JobMove.to(JobState.PENDING).runAt(NOW));
      assertThat(JobLifecycle.dependenciesMet(waiting(NOW.plusSeconds(5)), NOW).change())
          .isEqualTo(JobMove.to(JobState.PENDING).runAt(NOW.plusSeconds(5)));
    }

    @Test
    void aFailedDependencyCancelsOrDeadLettersWithTheStatedError() {
      assertThat(
              JobLifecycle.dependencyEnded(
                      waiting(NOW), DependencyFailure.CANCEL, 12, JobState.FAILED)
                  .change())
          .isEqualTo(JobMove.to(JobState.CANCELLED));
      assertThat(
              JobLifecycle.dependencyEnded(
                      waiting(NOW), DependencyFailure.DEAD_LETTER, 12, JobState.CANCELLED)
                  .change())
          .isEqualTo(
              JobMove.to(JobState.FAILED).lastError("DEPENDENCY_FAILED: job 12 ended CANCELLED"));
    }

    @Test
    void aWaitingJobIsCancelledAtOnce() {
      assertThat(JobLifecycle.cancel(waiting(NOW)).change()).isEqualTo(Cancellation.CANCEL_NOW);
    }

    @ParameterizedTest
    @EnumSource(
        value = JobState.class,
        names = {"PENDING", "SUCCEEDED", "FAILED", "CANCELLED"})
    void onlyAWaitingJobMovesOnADependencysOutcome(JobState state) {
      JobStatus job = finished(state);
      assertThat(JobLifecycle.dependenciesMet(job, NOW).refusal()).isEqualTo(Refusal.NOT_WAITING);
      assertThat(
              JobLifecycle.dependencyEnded(job, DependencyFailure.CANCEL, 1, JobState.FAILED)
                  .refusal())
          .isEqualTo(Refusal.NOT_WAITING);
    }
  }

  @Nested
  class Redrive {
    @Test
    void aDeadLetterRunsAgainAtTheGivenTime() {
      assertThat(JobLifecycle.redrive(finished(JobState.FAILED), NOW.plusSeconds(3)).change())
          .isEqualTo(new io.antrean.coordinator.job.Redrive(NOW.plusSeconds(3)));
    }

    @ParameterizedTest
    @EnumSource(
        value = JobState.class,
        names = {"SUCCEEDED", "CANCELLED"})
    void onlyDeadLettersAreRedriven(JobState state) {
      assertThat(JobLifecycle.redrive(finished(state), NOW).refusal())
          .isEqualTo(Refusal.NOT_DEAD_LETTERED);
      assertThat(JobLifecycle.redrive(pending(NOW), NOW).refusal())
          .isEqualTo(Refusal.NOT_DEAD_LETTERED);
      assertThat(JobLifecycle.redrive(running(false, 0), NOW).refusal())
          .isEqualTo(Refusal.NOT_DEAD_LETTERED);
    }
  }

  @Test
  void aStatusHasALeaseExactlyWhileRunning() {
    assertThatThrownBy(() -> new JobStatus(JobState.RUNNING, NOW, 1, 0, 0, false, null, POLICY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new JobStatus(
                    JobState.PENDING, NOW, 1, 0, 0, false, new LeaseInfo("w", 1, NOW), POLICY))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDecisionIsEitherAChangeOrARefusal() {
    assertThatThrownBy(() -> new Decision<>(null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Decision<>("x", Refusal.LEASE_LOST))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
