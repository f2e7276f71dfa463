package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Decision;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.LeaseEnd;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobNotFoundException;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.RetryPlanner;
import io.antrean.coordinator.store.jdbc.AttemptHistory;
import io.antrean.coordinator.store.jdbc.Outcome;
import io.antrean.coordinator.store.jdbc.RepeatedReports;
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
 * the job's row lock. A stale token writes a {@code STALE_COMPLETION_REJECTED} history entry and
 * nothing else, unless it repeats its holder's own accepted Complete or Fail ({@link
 * RepeatedReports}).
 */
final class WorkerWrites {
  private static final String RENEW =
      "UPDATE jobs SET lease_expires_at = ?, updated_at = ?, progress = coalesce(?, progress)"
          + " WHERE id = ? AND state = 'RUNNING' AND lease_token = ?"
          + " AND lease_worker_id = ? RETURNING cancel_requested";

  private WorkerWrites() {}

  static List<HeartbeatResult> heartbeat(
      Tx tx, String workerId, List<LeaseRenewal> renewals, Instant expiresAt, Instant now)
      throws SQLException {
    List<HeartbeatResult> results = new ArrayList<>(renewals.size());
    for (LeaseRenewal renewal : renewals) {
      results.add(heartbeat(tx, workerId, renewal, expiresAt, now));
    }
    return results;
  }

  private static HeartbeatResult heartbeat(
      Tx tx, String workerId, LeaseRenewal renewal, Instant expiresAt, Instant now)
      throws SQLException {
    PreparedStatement renew = tx.prepare(RENEW);
    Timestamps.set(renew, 1, expiresAt);
    Timestamps.set(renew, 2, now);
    renew.setString(3, renewal.progress());
    renew.setLong(4, renewal.jobId());
    renew.setLong(5, renewal.fencingToken());
    renew.setString(6, workerId);
    Boolean cancelRequested = null;
    try (ResultSet row = renew.executeQuery()) {
      if (row.next()) {
        cancelRequested = row.getBoolean(1);
      }
    }
    if (cancelRequested == null) {
      Optional<Job> job = JobRows.find(tx, renewal.jobId());
      if (job.isPresent()
          && !AttemptHistory.endedByItsHolder(
              tx.prepare(AttemptHistory.ENDED_BY_HOLDER),
              renewal.jobId(),
              renewal.fencingToken(),
              workerId)) {
        AttemptRows.staleRejected(
            tx, job.get(), workerId, renewal.fencingToken(), "heartbeat", now);
      }
      return new HeartbeatResult(
          renewal.jobId(), renewal.fencingToken(), HeartbeatResult.Status.LOST, null);
    }
    HeartbeatResult.Status status =
        cancelRequested ? HeartbeatResult.Status.CANCEL_REQUESTED : HeartbeatResult.Status.EXTENDED;
    return new HeartbeatResult(
        renewal.jobId(), renewal.fencingToken(), status, Timestamps.truncate(expiresAt));
  }

  static Outcome<Job> complete(
      Tx tx,
      long jobId,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      throws SQLException {
    Optional<Job> done =
        JobTransitions.succeed(tx, jobId, fencingToken, workerId, result, resultContentType, now);
    if (done.isPresent()) {
      return Outcome.of(done.get());
    }
    Job job = existing(tx, jobId, false);
    if (repeatsCompletion(tx, job, fencingToken, workerId, result, resultContentType)) {
      return Outcome.of(job);
    }
    return rejectStale(tx, job, workerId, fencingToken, "complete", now);
  }

  /**
   * Each completion judged as {@link #complete} would judge it alone; never throws for one. The
   * completions that hold their jobs are done in one statement ({@link JobTransitions#succeedAll});
   * only the others are looked at one by one.
   */
  static List<CompletionOutcome> completeAll(
      Tx tx, String workerId, List<Completion> completions, Instant now) throws SQLException {
    Map<Long, Job> done = JobTransitions.succeedAll(tx, workerId, completions, now);
    List<CompletionOutcome> outcomes = new ArrayList<>(completions.size());
    for (Completion c : completions) {
      Job completed = done.get(c.jobId());
      if (completed != null) {
        outcomes.add(CompletionOutcome.completed(completed));
        continue;
      }
      Optional<Job> job = JobRows.find(tx, c.jobId());
      if (job.isEmpty()) {
        outcomes.add(CompletionOutcome.notFound(c.jobId()));
        continue;
      }
      if (repeatsCompletion(
          tx, job.get(), c.fencingToken(), workerId, c.result(), c.resultContentType())) {
        outcomes.add(CompletionOutcome.completed(job.get()));
        continue;
      }
      AttemptRows.staleRejected(tx, job.get(), workerId, c.fencingToken(), "complete", now);
      outcomes.add(CompletionOutcome.leaseLost(c.jobId()));
    }
    return outcomes;
  }

  static Outcome<Job> fail(
      Tx tx,
      long jobId,
      long fencingToken,
      String workerId,
      Failure failure,
      RetryPlanner planner,
      Instant now)
      throws SQLException {
    Job job = existing(tx, jobId, true);
    Decision<LeaseEnd> end =
        JobLifecycle.fail(
            JobStatus.of(job),
            fencingToken,
            workerId,
            failure,
            () -> planner.nextRunAt(job, failure, now));
    if (end.isRefused()) {
      if (RepeatedReports.repeatsFailure(
          tx.prepare(RepeatedReports.OWN_END), jobId, fencingToken, workerId, failure)) {
        return Outcome.of(job);
      }
      return rejectStale(tx, job, workerId, fencingToken, "fail", now);
    }
    return Outcome.of(JobTransitions.endLease(tx, jobId, fencingToken, end.change(), now));
  }

  static Outcome<Job> release(
      Tx tx, long jobId, long fencingToken, String workerId, String reason, Instant now)
      throws SQLException {
    Job job = existing(tx, jobId, true);
    Decision<LeaseEnd> end =
        JobLifecycle.release(JobStatus.of(job), fencingToken, workerId, reason);
    if (end.isRefused()) {
      return rejectStale(tx, job, workerId, fencingToken, "release", now);
    }
    return Outcome.of(JobTransitions.endLease(tx, jobId, fencingToken, end.change(), now));
  }

  private static boolean repeatsCompletion(
      Tx tx,
      Job job,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType)
      throws SQLException {
    return RepeatedReports.repeatsCompletion(
        tx.prepare(RepeatedReports.OWN_END),
        job,
        fencingToken,
        workerId,
        result,
        resultContentType);
  }

  /** The job by id, in whatever state; locked until the transaction ends if asked. */
  private static Job existing(Tx tx, long jobId, boolean lock) throws SQLException {
    Optional<Job> job = lock ? JobRows.findForUpdate(tx, jobId) : JobRows.find(tx, jobId);
    return job.orElseThrow(() -> new JobNotFoundException(jobId));
  }

  private static Outcome<Job> rejectStale(
      Tx tx, Job job, String workerId, long fencingToken, String action, Instant now)
      throws SQLException {
    AttemptRows.staleRejected(tx, job, workerId, fencingToken, action, now);
    return Outcome.rejected(new LeaseLostException(job.id(), fencingToken));
  }
}
