package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.RetryPlanner;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How a lease ends other than by success: where the job goes next, and how the lease's attempt is
 * recorded in the history. The factories take the job as it stands under the lease (RUNNING, held
 * with the token being ended); the store applies both halves in one transaction.
 *
 * @param move the job's move, which also clears the lease
 * @param attempt how the lease's history entry ends
 */
public record LeaseEnd(JobMove move, AttemptEnd attempt) {
  /** The last error of a job failed for using up its lease expiries, and its attempts' message. */
  public static final String EXPIRED_LEASE_REASON = "lease expired";

  public LeaseEnd {
    Objects.requireNonNull(move, "move");
    Objects.requireNonNull(attempt, "attempt");
  }

  /**
   * The worker failed the attempt: PENDING at the planner's retry time, CANCELLED instead if a
   * cancellation is pending, or FAILED (dead-lettered) when the planner gives up.
   *
   * @throws RuntimeException whatever the planner throws
   */
  public static LeaseEnd failed(Job job, Failure failure, RetryPlanner planner, Instant now) {
    Optional<Instant> retryAt = planner.nextRunAt(job, failure, now);
    JobMove move;
    AttemptOutcome outcome;
    if (retryAt.isPresent()) {
      outcome = AttemptOutcome.FAILED_RETRYABLE;
      move =
          job.cancelRequested()
              ? JobMove.to(JobState.CANCELLED)
              : JobMove.to(JobState.PENDING).runAt(retryAt.get());
    } else {
      outcome =
          failure.kind() == ErrorKind.PERMANENT
              ? AttemptOutcome.FAILED_PERMANENT
              : AttemptOutcome.FAILED_RETRYABLE;
      move = JobMove.to(JobState.FAILED);
    }
    return new LeaseEnd(
        move.lastError(ErrorText.describe(failure)), new AttemptEnd(outcome, failure, null));
  }

  /**
   * The worker gave the job back unrun: PENDING again without using up a handler attempt (the lease
   * stays counted in {@code attempts} and is counted in {@code releases}), or CANCELLED if a
   * cancellation is pending.
   */
  public static LeaseEnd released(Job job, String reason) {
    JobMove move =
        job.cancelRequested() ? JobMove.to(JobState.CANCELLED) : JobMove.to(JobState.PENDING);
    AttemptOutcome outcome =
        job.cancelRequested() ? AttemptOutcome.CANCELLED : AttemptOutcome.RELEASED;
    return new LeaseEnd(move.releases(1), new AttemptEnd(outcome, null, reason));
  }

  /**
   * The lease expired: PENDING at the tail ({@code now}), FAILED once the job has used up its lease
   * expiries, or CANCELLED if a cancellation is pending (a cancelled job never runs again).
   */
  public static LeaseEnd expired(Job job, Instant now) {
    int expiries = job.leaseExpiries() + 1;
    JobMove move;
    if (job.cancelRequested()) {
      move = JobMove.to(JobState.CANCELLED);
    } else if (expiries >= job.retryPolicy().maxLeaseExpiries()) {
      move = JobMove.to(JobState.FAILED).lastError(EXPIRED_LEASE_REASON);
    } else {
      move = JobMove.to(JobState.PENDING).runAt(now);
    }
    return new LeaseEnd(
        move.leaseExpiries(1),
        new AttemptEnd(AttemptOutcome.LEASE_EXPIRED, null, EXPIRED_LEASE_REASON));
  }
}
