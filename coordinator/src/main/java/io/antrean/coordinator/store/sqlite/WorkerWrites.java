package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.AttemptEnd;
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
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * What workers report about the jobs they hold: heartbeats, completions, failures and releases.
 * Every method runs on the writer thread inside its transaction and is conditioned on the fencing
 * token; a stale token writes a {@code STALE_COMPLETION_REJECTED} history entry and nothing else,
 * unless it repeats its holder's own accepted Complete or Fail ({@link RepeatedReports}).
 */
final class WorkerWrites {
  private static final String RENEW =
      "UPDATE jobs SET lease_expires_at = ?, updated_at = ?, progress = coalesce(?, progress)"
          + " WHERE id = ? AND state = 'RUNNING' AND lease_token = ?"
          + " AND lease_worker_id = ? RETURNING cancel_requested";

  private WorkerWrites() {}

  static List<HeartbeatResult> heartbeat(
      CachedConnection connection,
      String workerId,
      List<LeaseRenewal> renewals,
      Instant expiresAt,
      Instant now)
      throws SQLException {
    List<HeartbeatResult> results = new ArrayList<>(renewals.size());
    for (LeaseRenewal renewal : renewals) {
      results.add(heartbeat(connection, workerId, renewal, expiresAt, now));
    }
    return results;
  }

  private static HeartbeatResult heartbeat(
      CachedConnection connection,
      String workerId,
      LeaseRenewal renewal,
      Instant expiresAt,
      Instant now)
      throws SQLException {
    Optional<Boolean> cancelRequested = renew(connection, workerId, renewal, expiresAt, now);
    if (cancelRequested.isEmpty()) {
      Optional<Job> job = JobRows.find(connection, renewal.jobId());
      if (job.isPresent()
          && !AttemptHistory.endedByItsHolder(
              connection.prepare(AttemptHistory.ENDED_BY_HOLDER),
              renewal.jobId(),
              renewal.fencingToken(),
              workerId)) {
        AttemptRows.staleRejected(
            connection, job.get(), workerId, renewal.fencingToken(), "heartbeat", now);
      }
      return new HeartbeatResult(
          renewal.jobId(), renewal.fencingToken(), HeartbeatResult.Status.LOST, null);
    }
    HeartbeatResult.Status status =
        cancelRequested.get()
            ? HeartbeatResult.Status.CANCEL_REQUESTED
            : HeartbeatResult.Status.EXTENDED;
    return new HeartbeatResult(
        renewal.jobId(), renewal.fencingToken(), status, Micros.toInstant(Micros.of(expiresAt)));
  }

  /** Extends the lease if it is current; answers whether a cancellation was requested. */
  private static Optional<Boolean> renew(
      CachedConnection connection,
      String workerId,
      LeaseRenewal renewal,
      Instant expiresAt,
      Instant now)
      throws SQLException {
    PreparedStatement renew = connection.prepare(RENEW);
    renew.setLong(1, Micros.of(expiresAt));
    renew.setLong(2, Micros.of(now));
    renew.setString(3, renewal.progress());
    renew.setLong(4, renewal.jobId());
    renew.setLong(5, renewal.fencingToken());
    renew.setString(6, workerId);
    try (ResultSet row = renew.executeQuery()) {
      return row.next() ? Optional.of(row.getInt(1) != 0) : Optional.empty();
    }
  }

  static Outcome<Job> complete(
      CachedConnection connection,
      long jobId,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      throws SQLException {
    Optional<Job> done =
        JobTransitions.succeed(
            connection, jobId, fencingToken, workerId, result, resultContentType, now);
    if (done.isEmpty()) {
      Job job = existing(connection, jobId);
      if (repeatsCompletion(connection, job, fencingToken, workerId, result, resultContentType)) {
        return Outcome.of(job);
      }
      return rejectStale(connection, job, workerId, fencingToken, "complete", now);
    }
    AttemptRows.ended(connection, jobId, fencingToken, AttemptEnd.SUCCEEDED, now);
    return Outcome.of(done.get());
  }

  /** Each completion judged as {@link #complete} would judge it alone; never throws for one. */
  static List<CompletionOutcome> completeAll(
      CachedConnection connection, String workerId, List<Completion> completions, Instant now)
      throws SQLException {
    List<CompletionOutcome> outcomes = new ArrayList<>(completions.size());
    for (Completion c : completions) {
      Optional<Job> done =
          JobTransitions.succeed(
              connection,
              c.jobId(),
              c.fencingToken(),
              workerId,
              c.result(),
              c.resultContentType(),
              now);
      if (done.isPresent()) {
        AttemptRows.ended(connection, c.jobId(), c.fencingToken(), AttemptEnd.SUCCEEDED, now);
        outcomes.add(CompletionOutcome.completed(done.get()));
        continue;
      }
      Optional<Job> job = JobRows.find(connection, c.jobId());
      if (job.isEmpty()) {
        outcomes.add(CompletionOutcome.notFound(c.jobId()));
        continue;
      }
      if (repeatsCompletion(
          connection, job.get(), c.fencingToken(), workerId, c.result(), c.resultContentType())) {
        outcomes.add(CompletionOutcome.completed(job.get()));
        continue;
      }
      AttemptRows.staleRejected(connection, job.get(), workerId, c.fencingToken(), "complete", now);
      outcomes.add(CompletionOutcome.leaseLost(c.jobId()));
    }
    return outcomes;
  }

  static Outcome<Job> fail(
      CachedConnection connection,
      long jobId,
      long fencingToken,
      String workerId,
      Failure failure,
      RetryPlanner planner,
      Instant now)
      throws SQLException {
    Job job = existing(connection, jobId);
    Decision<LeaseEnd> end =
        JobLifecycle.fail(
            JobStatus.of(job),
            fencingToken,
            workerId,
            failure,
            () -> planner.nextRunAt(job, failure, now));
    if (end.isRefused()) {
      if (RepeatedReports.repeatsFailure(
          connection.prepare(RepeatedReports.OWN_END), jobId, fencingToken, workerId, failure)) {
        return Outcome.of(job);
      }
      return rejectStale(connection, job, workerId, fencingToken, "fail", now);
    }
    return Outcome.of(JobTransitions.endLease(connection, jobId, fencingToken, end.change(), now));
  }

  static Outcome<Job> release(
      CachedConnection connection,
      long jobId,
      long fencingToken,
      String workerId,
      String reason,
      Instant now)
      throws SQLException {
    Job job = existing(connection, jobId);
    Decision<LeaseEnd> end =
        JobLifecycle.release(JobStatus.of(job), fencingToken, workerId, reason);
    if (end.isRefused()) {
      return rejectStale(connection, job, workerId, fencingToken, "release", now);
    }
    return Outcome.of(JobTransitions.endLease(connection, jobId, fencingToken, end.change(), now));
  }

  private static boolean repeatsCompletion(
      CachedConnection connection,
      Job job,
      long fencingToken,
      String workerId,
      @Nullable byte[] result,
      @Nullable String resultContentType)
      throws SQLException {
    return RepeatedReports.repeatsCompletion(
        connection.prepare(RepeatedReports.OWN_END),
        job,
        fencingToken,
        workerId,
        result,
        resultContentType);
  }

  /** The job by id, in whatever state. */
  private static Job existing(CachedConnection connection, long jobId) throws SQLException {
    return JobRows.find(connection, jobId).orElseThrow(() -> new JobNotFoundException(jobId));
  }

  private static Outcome<Job> rejectStale(
      CachedConnection connection,
      Job job,
      String workerId,
      long fencingToken,
      String action,
      Instant now)
      throws SQLException {
    AttemptRows.staleRejected(connection, job, workerId, fencingToken, action, now);
    return Outcome.rejected(new LeaseLostException(job.id(), fencingToken));
  }
}
