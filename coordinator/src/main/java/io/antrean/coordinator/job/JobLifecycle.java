package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The job state machine: the one place that decides every transition of the state table in
 * docs/design.md ("Jobs and their states"). Each method is a pure function of the job's {@link
 * JobStatus}, the event and {@code now}, and answers a {@link Decision}: the change a store
 * persists, or why the event changes nothing. Stores read the job, ask here, and write what is
 * decided in the same transaction; the single-statement hot paths (lease, heartbeat, complete,
 * redrive) condition their UPDATE on exactly the precondition decided here.
 *
 * <table>
 *   <caption>transitions</caption>
 *   <tr><th>event</th><th>from</th><th>to</th></tr>
 *   <tr><td>{@link #lease}</td><td>PENDING, due</td><td>RUNNING</td></tr>
 *   <tr><td>{@link #heartbeat}</td><td>RUNNING, held</td><td>RUNNING, lease extended</td></tr>
 *   <tr><td>{@link #complete}</td><td>RUNNING, held</td><td>SUCCEEDED</td></tr>
 *   <tr><td>{@link #fail}</td><td>RUNNING, held</td><td>PENDING (retry), FAILED, CANCELLED</td></tr>
 *   <tr><td>{@link #release}</td><td>RUNNING, held</td><td>PENDING, CANCELLED</td></tr>
 *   <tr><td>{@link #expire}</td><td>RUNNING, lapsed</td><td>PENDING, FAILED, CANCELLED</td></tr>
 *   <tr><td>{@link #cancel}</td><td>PENDING, WAITING; RUNNING</td><td>CANCELLED; flagged</td></tr>
 *   <tr><td>{@link #redrive}</td><td>FAILED</td><td>PENDING</td></tr>
 *   <tr><td>{@link #dependenciesMet}</td><td>WAITING</td><td>PENDING</td></tr>
 *   <tr><td>{@link #dependencyEnded}</td><td>WAITING</td><td>CANCELLED, FAILED</td></tr>
 * </table>
 *
 * <p>A job enqueued with dependencies (or redriven, when it has them) is WAITING while any of them
 * has not SUCCEEDED; it is never leased.
 *
 * <p>SUCCEEDED and CANCELLED are final; FAILED leaves only by redrive. A stale fencing token
 * changes nothing.
 */
public final class JobLifecycle {
  /** The last error of a job failed for using up its lease expiries, and its attempts' message. */
  public static final String EXPIRED_LEASE_REASON = "lease expired";

  /** The error type of a job dead-lettered because a job it depends on did not succeed. */
  public static final String DEPENDENCY_FAILED = "DEPENDENCY_FAILED";

  /** The move of a PENDING job cancelled at once. */
  public static final JobMove CANCEL_NOW = JobMove.to(JobState.CANCELLED);

  private JobLifecycle() {}

  /** A worker leases a PENDING job whose run time has come. */
  public static Decision<LeaseGrant> lease(
      JobStatus job, String workerId, Instant expiresAt, Instant now) {
    if (job.state() != JobState.PENDING) {
      return Decision.refused(Refusal.NOT_PENDING);
    }
    if (job.runAt().isAfter(now)) {
      return Decision.refused(Refusal.NOT_DUE);
    }
    return Decision.to(new LeaseGrant(workerId, expiresAt, job.attempts() + 1));
  }

  /**
   * The lease holder extends its lease to {@code expiresAt}, and hears whether a cancellation was
   * requested.
   */
  public static Decision<Renewal> heartbeat(
      JobStatus job, long fencingToken, String workerId, Instant expiresAt) {
    if (!job.isHeldBy(fencingToken, workerId)) {
      return Decision.refused(Refusal.LEASE_LOST);
    }
    return Decision.to(new Renewal(expiresAt, job.cancelRequested()));
  }

  /** The lease holder completes the job: SUCCEEDED, whether or not a cancellation was asked. */
  public static Decision<LeaseEnd> complete(JobStatus job, long fencingToken, String workerId) {
    if (!job.isHeldBy(fencingToken, workerId)) {
      return Decision.refused(Refusal.LEASE_LOST);
    }
    return Decision.to(new LeaseEnd(JobMove.to(JobState.SUCCEEDED), AttemptEnd.SUCCEEDED));
  }

  /**
   * The lease holder fails the attempt: PENDING at the retry time the plan gives, CANCELLED instead
   * if a cancellation is pending, or FAILED (dead-lettered) when the plan gives none.
   *
   * @param retryPlan when the job may run again, or empty to dead-letter it; asked only when the
   *     lease is held, with the failed attempt counted in {@code job}
   * @throws RuntimeException whatever the plan throws
   */
  public static Decision<LeaseEnd> fail(
      JobStatus job,
      long fencingToken,
      String workerId,
      Failure failure,
      Supplier<Optional<Instant>> retryPlan) {
    if (!job.isHeldBy(fencingToken, workerId)) {
      return Decision.refused(Refusal.LEASE_LOST);
    }
    Optional<Instant> retryAt = retryPlan.get();
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
    return Decision.to(
        new LeaseEnd(move.lastError(failure.summary()), new AttemptEnd(outcome, failure, null)));
  }

  /**
   * The lease holder gives the job back unrun: PENDING again without using up a handler attempt
   * (the lease stays counted in {@code attempts} and is counted in {@code releases}), or CANCELLED
   * if a cancellation is pending.
   */
  public static Decision<LeaseEnd> release(
      JobStatus job, long fencingToken, String workerId, String reason) {
    if (!job.isHeldBy(fencingToken, workerId)) {
      return Decision.refused(Refusal.LEASE_LOST);
    }
    JobMove move =
        job.cancelRequested() ? JobMove.to(JobState.CANCELLED) : JobMove.to(JobState.PENDING);
    AttemptOutcome outcome =
        job.cancelRequested() ? AttemptOutcome.CANCELLED : AttemptOutcome.RELEASED;
    return Decision.to(new LeaseEnd(move.releases(1), new AttemptEnd(outcome, null, reason)));
  }

  /**
   * The lease with this token lapsed by {@code now}: PENDING at the tail ({@code now}), FAILED once
   * the job has used up its lease expiries, or CANCELLED if a cancellation is pending (a cancelled
   * job never runs again).
   */
  public static Decision<LeaseEnd> expire(JobStatus job, long fencingToken, Instant now) {
    if (!job.isHeldWith(fencingToken)) {
      return Decision.refused(Refusal.LEASE_LOST);
    }
    if (job.lease().expiresAt().isAfter(now)) {
      return Decision.refused(Refusal.NOT_EXPIRED);
    }
    int expiries = job.leaseExpiries() + 1;
    JobMove move;
    if (job.cancelRequested()) {
      move = JobMove.to(JobState.CANCELLED);
    } else if (expiries >= job.retryPolicy().maxLeaseExpiries()) {
      move = JobMove.to(JobState.FAILED).lastError(EXPIRED_LEASE_REASON);
    } else {
      move = JobMove.to(JobState.PENDING).runAt(now);
    }
    return Decision.to(
        new LeaseEnd(
            move.leaseExpiries(1),
            new AttemptEnd(AttemptOutcome.LEASE_EXPIRED, null, EXPIRED_LEASE_REASON)));
  }

  /** A producer or operator cancels the job. */
  public static Decision<Cancellation> cancel(JobStatus job) {
    return switch (job.state()) {
      case PENDING, WAITING -> Decision.to(Cancellation.CANCEL_NOW);
      case RUNNING ->
          Decision.to(job.cancelRequested() ? Cancellation.ALREADY_ASKED : Cancellation.ASK_WORKER);
      case SUCCEEDED, FAILED, CANCELLED -> Decision.refused(Refusal.JOB_FINISHED);
    };
  }

  /**
   * The last job a WAITING job depends on SUCCEEDED: PENDING, due at once unless its own run time
   * is later.
   */
  public static Decision<JobMove> dependenciesMet(JobStatus job, Instant now) {
    if (job.state() != JobState.WAITING) {
      return Decision.refused(Refusal.NOT_WAITING);
    }
    return Decision.to(
        JobMove.to(JobState.PENDING).runAt(job.runAt().isAfter(now) ? job.runAt() : now));
  }

  /**
   * A job a WAITING job depends on ended FAILED or CANCELLED: the job's policy applies, CANCELLED,
   * or FAILED (dead-lettered) with the last error {@code DEPENDENCY_FAILED: job <id> ended
   * <state>}.
   */
  public static Decision<JobMove> dependencyEnded(
      JobStatus job, DependencyFailure policy, long dependencyId, JobState dependencyState) {
    if (job.state() != JobState.WAITING) {
      return Decision.refused(Refusal.NOT_WAITING);
    }
    if (dependencyState != JobState.FAILED && dependencyState != JobState.CANCELLED) {
      throw new IllegalArgumentException("not a failed dependency: " + dependencyState);
    }
    return Decision.to(
        switch (policy) {
          case CANCEL -> JobMove.to(JobState.CANCELLED);
          case DEAD_LETTER ->
              JobMove.to(JobState.FAILED)
                  .lastError(
                      DEPENDENCY_FAILED + ": job " + dependencyId + " ended " + dependencyState);
        });
  }

  /** An operator redrives a dead letter to run at {@code runAt}. */
  public static Decision<Redrive> redrive(JobStatus job, Instant runAt) {
    if (job.state() != JobState.FAILED) {
      return Decision.refused(Refusal.NOT_DEAD_LETTERED);
    }
    return Decision.to(new Redrive(runAt));
  }
}
