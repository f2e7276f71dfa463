package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Decision;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.LeaseEnd;
import io.antrean.coordinator.job.Refusal;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobNotFoundException;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.RetryPlanner;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * What workers report about the jobs they hold: heartbeats, completions, failures and releases.
 * Every change is conditioned on the fencing token, either in the UPDATE's own WHERE clause (which
 * PostgreSQL checks again against the latest row after waiting for a concurrent writer) or under
 * the job's row lock (on SQLite: on the only writer). A stale token writes a {@code
 * STALE_COMPLETION_REJECTED} history entry and nothing else, unless it repeats its holder's own
 * accepted Complete or Fail ({@link RepeatedReports}).
 */
public final class WorkerWrites {
  /** A heartbeat's renewal of one lease; public for the tests of its plan. */
  public static final String RENEW =
      "UPDATE jobs SET lease_expires_at = ?, updated_at = ?, progress = coalesce(?, progress)"
          + " WHERE id = ? AND state = 'RUNNING' AND lease_token = ?"
          + " AND lease_worker_id = ? AND lease_id_sha256 = ? RETURNING cancel_requested";

  private WorkerWrites() {}

  /** One answer per renewal, in order. */
  public static List<HeartbeatResult> heartbeat(
      JdbcSession session,
      String workerId,
      List<LeaseRenewal> renewals,
      Instant expiresAt,
      Instant now)
      throws SQLException {
    List<HeartbeatResult> results = new ArrayList<>(renewals.size());
    for (LeaseRenewal renewal : renewals) {
      results.add(heartbeat(session, workerId, renewal, expiresAt, now));
    }
    return results;
  }

  private static HeartbeatResult heartbeat(
      JdbcSession session, String workerId, LeaseRenewal renewal, Instant expiresAt, Instant now)
      throws SQLException {
    Optional<Boolean> cancelRequested = renew(session, workerId, renewal, expiresAt, now);
    if (cancelRequested.isEmpty()) {
      Optional<Job> job = JobRows.find(session, renewal.jobId());
      if (job.isPresent()
          && !AttemptHistory.endedByItsHolder(
              session.prepare(AttemptHistory.ENDED_BY_HOLDER),
              renewal.jobId(),
              renewal.fencingToken(),
              workerId)) {
        AttemptRows.staleRejected(
            session, job.get(), workerId, renewal.fencingToken(), "heartbeat", now);
      }
      return new HeartbeatResult(
          renewal.jobId(), renewal.fencingToken(), HeartbeatResult.Status.LOST, null);
    }
    HeartbeatResult.Status status =
        cancelRequested.get()
            ? HeartbeatResult.Status.CANCEL_REQUESTED
            : HeartbeatResult.Status.EXTENDED;
    return new HeartbeatResult(
        renewal.jobId(), renewal.fencingToken(), status, session.dialect().asStored(expiresAt));
  }

  /** Extends the lease if it is current; answers whether a cancellation was requested. */
  private static Optional<Boolean> renew(
      JdbcSession session, String workerId, LeaseRenewal renewal, Instant expiresAt, Instant now)
      throws SQLException {
    PreparedStatement renew = session.prepare(RENEW);
    session.dialect().setInstant(renew, 1, expiresAt);
    session.dialect().setInstant(renew, 2, now);
    renew.setString(3, renewal.progress());
    renew.setLong(4, renewal.jobId());
    renew.setLong(5, renewal.fencingToken());
    renew.setString(6, workerId);
    // Digests compared: timing cannot help build a matching lease id (see LeaseId).
    renew.setBytes(7, renewal.lease().leaseIdSha256());
    try (ResultSet row = renew.executeQuery()) {
      // sqlite-jdbc reads an INTEGER flag as getInt(...) != 0; PostgreSQL has a boolean.
      return row.next() ? Optional.of(row.getBoolean(1)) : Optional.empty();
    }
  }

  /**
   * Completes the job if the token holds it; a repeat of the holder's own completion is OK. Null
   * when the claim holds the job but other jobs depend on it: the caller completes it with {@link
   * #completeWithDependents}, in a transaction.
   */
  @Nullable
  public static Outcome<Job> complete(
      JdbcSession session,
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      throws SQLException {
    Completion completion = new Completion(jobId, claim, result, resultContentType);
    Optional<Job> done = session.dialect().succeed(session, workerId, completion, now);
    if (done.isPresent()) {
      return Outcome.of(done.get());
    }
    Job job = JobRows.find(session, jobId).orElseThrow(() -> new JobNotFoundException(jobId));
    if (holds(job, claim, workerId)) {
      return null;
    }
    if (repeatsCompletion(session, job, claim, workerId, result, resultContentType)) {
      return Outcome.of(job);
    }
    return rejectStale(session, job, workerId, claim.fencingToken(), "complete", now);
  }

  /**
   * Each completion judged as {@link #complete} would judge it alone; never throws for one. The
   * completions that hold their jobs are done together ({@link JdbcDialect#succeedAll}); only the
   * others are looked at one by one.
   */
  public static List<CompletionOutcome> completeAll(
      JdbcSession session, String workerId, List<Completion> completions, Instant now)
      throws SQLException {
    Map<Long, String> done = session.dialect().succeedAll(session, workerId, completions, now);
    List<CompletionOutcome> outcomes = new ArrayList<>(completions.size());
    for (Completion c : completions) {
      String queue = done.get(c.jobId());
      if (queue != null) {
        outcomes.add(CompletionOutcome.completed(c.jobId(), queue));
        continue;
      }
      Optional<Job> job = JobRows.find(session, c.jobId());
      if (job.isEmpty()) {
        outcomes.add(CompletionOutcome.notFound(c.jobId()));
        continue;
      }
      if (holds(job.get(), c.lease(), workerId)) {
        outcomes.add(completedWithDependents(session, c, workerId, now));
        continue;
      }
      if (repeatsCompletion(
          session, job.get(), c.lease(), workerId, c.result(), c.resultContentType())) {
        outcomes.add(CompletionOutcome.repeated(c.jobId(), job.get().queue()));
        continue;
      }
      AttemptRows.staleRejected(session, job.get(), workerId, c.fencingToken(), "complete", now);
      outcomes.add(CompletionOutcome.leaseLost(c.jobId()));
    }
    return outcomes;
  }

  /**
   * {@link #completeWithDependents} for one item of a batch, judged under the job's row lock: on
   * PostgreSQL another batch carrying the same report may have completed the job since it was read
   * RUNNING, and then this one repeats it (or, with another result, has lost the lease); or the job
   * may have been deleted since.
   */
  private static CompletionOutcome completedWithDependents(
      JdbcSession session, Completion c, String workerId, Instant now) throws SQLException {
    Job locked;
    try {
      locked = lockedJob(session, c.jobId());
    } catch (JobNotFoundException e) {
      return CompletionOutcome.notFound(c.jobId()); // deleted since it was read
    }
    try {
      completeLocked(session, locked, c.lease(), workerId, c.result(), c.resultContentType(), now)
          .orThrow();
    } catch (LeaseLostException e) {
      return CompletionOutcome.leaseLost(c.jobId());
    }
    // Only a repeat of its own report is answered OK for a job that had SUCCEEDED already.
    return locked.state() == JobState.SUCCEEDED
        ? CompletionOutcome.repeated(c.jobId(), locked.queue())
        : CompletionOutcome.completed(c.jobId(), locked.queue());
  }

  /** Ends the lease as {@link JobLifecycle#fail} decides: a retry, or the dead-letter queue. */
  public static Outcome<Job> fail(
      JdbcSession session,
      long jobId,
      LeaseClaim claim,
      String workerId,
      Failure failure,
      RetryPlanner planner,
      Instant now)
      throws SQLException {
    Job job = lockedJob(session, jobId);
    Decision<LeaseEnd> end =
        Leases.hasLeaseId(job, claim)
            ? JobLifecycle.fail(
                JobStatus.of(job),
                claim.fencingToken(),
                workerId,
                failure,
                () -> planner.nextRunAt(job, failure, now))
            : Decision.refused(Refusal.LEASE_LOST);
    if (end.isRefused()) {
      if (RepeatedReports.repeatsFailure(
          session.prepare(RepeatedReports.OWN_END), jobId, claim, workerId, failure)) {
        return Outcome.of(job);
      }
      return rejectStale(session, job, workerId, claim.fencingToken(), "fail", now);
    }
    return Outcome.of(
        JobTransitions.endLease(session, jobId, claim.fencingToken(), end.change(), now));
  }

  /** Hands the job back unrun, without spending an attempt. */
  public static Outcome<Job> release(
      JdbcSession session,
      long jobId,
      LeaseClaim claim,
      String workerId,
      String reason,
      Instant now)
      throws SQLException {
    Job job = lockedJob(session, jobId);
    Decision<LeaseEnd> end =
        Leases.hasLeaseId(job, claim)
            ? JobLifecycle.release(JobStatus.of(job), claim.fencingToken(), workerId, reason)
            : Decision.refused(Refusal.LEASE_LOST);
    if (end.isRefused()) {
      return rejectStale(session, job, workerId, claim.fencingToken(), "release", now);
    }
    return Outcome.of(
        JobTransitions.endLease(session, jobId, claim.fencingToken(), end.change(), now));
  }

  private static boolean repeatsCompletion(
      JdbcSession session,
      Job job,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType)
      throws SQLException {
    return RepeatedReports.repeatsCompletion(
        session.prepare(RepeatedReports.OWN_END), job, claim, workerId, result, resultContentType);
  }

  /** The job by id, in whatever state, locked until the work ends. */
  private static Job lockedJob(JdbcSession session, long jobId) throws SQLException {
    return JobRows.findForUpdate(session, jobId).orElseThrow(() -> new JobNotFoundException(jobId));
  }

  private static Outcome<Job> rejectStale(
      JdbcSession session, Job job, String workerId, long fencingToken, String action, Instant now)
      throws SQLException {
    AttemptRows.staleRejected(session, job, workerId, fencingToken, action, now);
    return Outcome.rejected(new LeaseLostException(job.id(), fencingToken));
  }

  private static final String SUCCEED_LOCKED =
      "UPDATE jobs SET state = 'SUCCEEDED', result = ?, result_content_type = ?,"
          + " finished_at = ?, updated_at = ?, lease_worker_id = NULL, lease_expires_at = NULL"
          + " WHERE id = ? RETURNING "
          + JobRowReader.JOB_COLUMNS;

  /** True while the claim holds the job: RUNNING under its token and lease id, for this worker. */
  private static boolean holds(Job job, LeaseClaim claim, String workerId) {
    return Leases.hasLeaseId(job, claim)
        && JobStatus.of(job).isHeldBy(claim.fencingToken(), workerId);
  }

  /**
   * {@link #complete}, or {@link #completeWithDependents} if the job has dependents, in the
   * caller's transaction: for a store whose one writer commits the dependents' change with the
   * completion.
   */
  public static Outcome<Job> completeInTransaction(
      JdbcSession session,
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      throws SQLException {
    Outcome<Job> done = complete(session, jobId, claim, workerId, result, resultContentType, now);
    return done != null
        ? done
        : completeWithDependents(session, jobId, claim, workerId, result, resultContentType, now);
  }

  /**
   * {@link #complete} for a job that other jobs depend on, in a transaction: under the job's row
   * lock, completes it, ends its attempt and counts it as met for its dependents ({@link
   * Dependencies#succeeded}), all in one change.
   */
  public static Outcome<Job> completeWithDependents(
      JdbcSession session,
      long jobId,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      throws SQLException {
    return completeLocked(
        session, lockedJob(session, jobId), claim, workerId, result, resultContentType, now);
  }

  /** {@link #completeWithDependents} of the job as its row lock was taken. */
  private static Outcome<Job> completeLocked(
      JdbcSession session,
      Job job,
      LeaseClaim claim,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      throws SQLException {
    long jobId = job.id();
    Decision<LeaseEnd> end =
        Leases.hasLeaseId(job, claim)
            ? JobLifecycle.complete(JobStatus.of(job), claim.fencingToken(), workerId)
            : Decision.refused(Refusal.LEASE_LOST);
    if (end.isRefused()) {
      if (repeatsCompletion(session, job, claim, workerId, result, resultContentType)) {
        return Outcome.of(job);
      }
      return rejectStale(session, job, workerId, claim.fencingToken(), "complete", now);
    }
    JdbcDialect dialect = session.dialect();
    PreparedStatement update = session.prepare(SUCCEED_LOCKED);
    update.setBytes(1, result);
    update.setString(2, resultContentType);
    dialect.setInstant(update, 3, now);
    dialect.setInstant(update, 4, now);
    update.setLong(5, jobId);
    Job done = JobRows.single(session, update, jobId);
    dialect.countMoved(session, done.queue(), JobState.RUNNING, JobState.SUCCEEDED, 1);
    AttemptRows.ended(session, jobId, claim.fencingToken(), end.change().attempt(), now);
    Dependencies.succeeded(session, jobId, now);
    return Outcome.of(done);
  }
}
