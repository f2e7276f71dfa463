package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.job.LeaseInfo;
import io.antrean.coordinator.store.AnswerBudget;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.jdbc.HeldJobs;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.Leases;
import io.antrean.coordinator.store.jdbc.QueueRows;
import io.antrean.coordinator.store.jdbc.QueueStats;
import io.antrean.coordinator.store.jdbc.RepeatedReports;
import io.antrean.coordinator.store.jdbc.WorkerWrites;
import io.antrean.coordinator.store.sqlite.SqliteDialect.Picked;
import io.antrean.coordinator.store.sqlite.young.YoungAttempt;
import io.antrean.coordinator.store.sqlite.young.YoungJobs;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import javax.annotation.Nullable;

/**
 * The lease, the completions and the heartbeats of workers as they run on young jobs without a
 * fold: a lease takes the young jobs and the database's rows together in lease order, and a job's
 * first lease's holder extends and completes it in memory. Each returns null where only the
 * database's rows can decide (a queue with limits; a report on a young job that does not hold it, a
 * repeat or a stale one): the operation then folds and runs as it always does. The answers are the
 * ones the operation gives on the rows.
 */
final class YoungWork {
  private static final SqliteDialect DIALECT = SqliteDialect.INSTANCE;
  private static final List<JobState> YOUNG_STATES =
      List.of(JobState.PENDING, JobState.RUNNING, JobState.SUCCEEDED);

  private YoungWork() {}

  /** As {@link SqliteDialect#lease}, the young jobs due in the queue taken in their turn. */
  @Nullable
  static List<Job> lease(JdbcSession session, YoungJobs young, LeaseSpec spec, Instant now)
      throws SQLException {
    if (young.isEmpty()) {
      return DIALECT.lease(session, spec, now);
    }
    QueueRows.ForLease queue = SqliteDialect.forLease(session, spec.queue());
    if (queue.paused()) {
      return List.of();
    }
    if (queue.limits().limited()) {
      return null; // its limits count the running jobs on the rows
    }
    List<YoungJob> head = young.due(spec.queue(), spec.types(), now, spec.maxJobs());
    if (head.isEmpty()) {
      return SqliteDialect.leaseUnlimited(session, spec, now);
    }
    List<Picked> rows = SqliteDialect.pick(session, spec, now);
    List<Long> rowIds = new ArrayList<>(rows.size());
    List<YoungJob> youngTaken = new ArrayList<>(head.size());
    long payloadBytes = 0;
    int r = 0;
    int y = 0;
    while (rowIds.size() + youngTaken.size() < spec.maxJobs()
        && AnswerBudget.hasRoom(payloadBytes)
        && (r < rows.size() || y < head.size())) {
      if (y == head.size() || (r < rows.size() && comesFirst(rows.get(r), head.get(y)))) {
        rowIds.add(rows.get(r).id());
        payloadBytes += rows.get(r++).payloadLength();
      } else {
        youngTaken.add(head.get(y));
        payloadBytes += head.get(y++).job().payloadSize();
      }
    }
    List<Job> leased = new ArrayList<>(BatchWrites.grant(session, spec, rowIds, now));
    for (YoungJob j : youngTaken) {
      LeaseId leaseId = LeaseId.generate();
      young.lease(j.id(), spec.workerId(), leaseId.sha256(), spec.expiresAt(), now);
      LeaseInfo lease =
          new LeaseInfo(spec.workerId(), YoungJobs.FIRST_TOKEN, spec.expiresAt(), leaseId);
      leased.add(DIALECT.reader().leased(j.id(), j.job(), j.createdAt(), lease, now));
    }
    return Leases.inGrantOrder(leased);
  }

  /** Whether the row comes before the young job in lease order (ids never tie). */
  private static boolean comesFirst(Picked row, YoungJob job) {
    if (row.priority() != job.job().priority()) {
      return row.priority() > job.job().priority();
    }
    long runAt = Micros.of(job.job().runAt());
    return row.runAtMicros() != runAt ? row.runAtMicros() < runAt : row.id() < job.id();
  }

  /** As {@link WorkerWrites#completeAll}, the young jobs completed in memory. */
  @Nullable
  static List<CompletionOutcome> completeAll(
      JdbcSession session,
      YoungJobs young,
      String workerId,
      List<Completion> completions,
      Instant now)
      throws SQLException {
    CompletionOutcome[] outcomes = new CompletionOutcome[completions.size()];
    List<Completion> onRows = new ArrayList<>(completions.size());
    List<Integer> rowsAt = new ArrayList<>(completions.size());
    for (int i = 0; i < completions.size(); i++) {
      Completion c = completions.get(i);
      YoungJob job = young.find(c.jobId());
      if (job == null) {
        onRows.add(c);
        rowsAt.add(i);
      } else if (holds(job, c.lease(), workerId)
          && YoungJobs.fits(c.resultSize(), c.resultContentType())) {
        young.succeed(c.jobId(), c.fencingToken(), c.result(), c.resultContentType(), now);
        outcomes[i] = CompletionOutcome.completed(c.jobId(), job.job().queue());
      } else if (repeatsCompletion(job, c, workerId)) {
        // A repeat of the holder's own completion (its answer lost, say): OK, as on the rows;
        // judged here, as a fold of every young job for it would hold the writer for 100s of ms.
        outcomes[i] = CompletionOutcome.repeated(c.jobId(), job.job().queue());
      } else {
        return null;
      }
    }
    if (!onRows.isEmpty()) {
      List<CompletionOutcome> done = WorkerWrites.completeAll(session, workerId, onRows, now);
      for (int k = 0; k < done.size(); k++) {
        outcomes[rowsAt.get(k)] = done.get(k);
      }
    }
    return List.of(outcomes);
  }

  /** As {@link WorkerWrites#heartbeat}, the young jobs' leases extended in memory. */
  @Nullable
  static List<HeartbeatResult> heartbeat(
      JdbcSession session,
      YoungJobs young,
      String workerId,
      List<LeaseRenewal> renewals,
      Instant expiresAt,
      Instant now)
      throws SQLException {
    HeartbeatResult[] results = new HeartbeatResult[renewals.size()];
    List<LeaseRenewal> onRows = new ArrayList<>(renewals.size());
    List<Integer> rowsAt = new ArrayList<>(renewals.size());
    for (int i = 0; i < renewals.size(); i++) {
      LeaseRenewal renewal = renewals.get(i);
      YoungJob job = young.find(renewal.jobId());
      if (job == null) {
        onRows.add(renewal);
        rowsAt.add(i);
      } else if (holds(job, renewal.lease(), workerId) && YoungJobs.fits(0, renewal.progress())) {
        young.extend(renewal.jobId(), renewal.fencingToken(), expiresAt, renewal.progress(), now);
        results[i] =
            new HeartbeatResult(
                renewal.jobId(),
                renewal.fencingToken(),
                HeartbeatResult.Status.EXTENDED,
                DIALECT.asStored(expiresAt));
      } else if (endedByItsHolder(job, renewal.fencingToken(), workerId)) {
        // It crossed its holder's own completion: LOST, with nothing stale to record, as on the
        // rows; judged here, as a fold of every young job for it held the writer for 100-250 ms.
        results[i] =
            new HeartbeatResult(
                renewal.jobId(), renewal.fencingToken(), HeartbeatResult.Status.LOST, null);
      } else {
        return null;
      }
    }
    if (!onRows.isEmpty()) {
      List<HeartbeatResult> done =
          WorkerWrites.heartbeat(session, workerId, onRows, expiresAt, now);
      for (int k = 0; k < done.size(); k++) {
        results[rowsAt.get(k)] = done.get(k);
      }
    }
    return List.of(results);
  }

  /**
   * As {@link HeldJobs#count}, or null where a queue with limits has a young job that is not done:
   * its counts are on the rows, after a fold.
   */
  @Nullable
  static SortedMap<String, Long> heldByLimits(JdbcSession session, YoungJobs young, Instant now)
      throws SQLException {
    for (String queue : QueueRows.limited(session).keySet()) {
      if (young.count(queue, JobState.PENDING) + young.count(queue, JobState.RUNNING) > 0) {
        return null;
      }
    }
    return HeldJobs.count(session, now);
  }

  /**
   * Whether the completion repeats the one that made the young job SUCCEEDED ({@link
   * io.antrean.coordinator.store.jdbc.RepeatedReports#repeatsCompletion}): that lease's holder,
   * under the same lease id, with the same result and content type.
   */
  private static boolean repeatsCompletion(YoungJob job, Completion c, String workerId) {
    YoungAttempt attempt = job.attempt();
    return endedByItsHolder(job, c.fencingToken(), workerId)
        && c.lease().matches(LeaseId.stored(attempt.leaseIdSha256()))
        && RepeatedReports.sameResult(
            attempt.result(), attempt.resultContentType(), c.result(), c.resultContentType());
  }

  /**
   * Whether the lease with this token ended by its holder's own report ({@link
   * io.antrean.coordinator.store.jdbc.AttemptHistory#endedByItsHolder}): a young attempt ends only
   * by its holder's success.
   */
  private static boolean endedByItsHolder(YoungJob job, long fencingToken, String workerId) {
    YoungAttempt attempt = job.attempt();
    return attempt != null
        && attempt.succeeded()
        && attempt.fencingToken() == fencingToken
        && attempt.workerId().equals(workerId);
  }

  /** Whether the claim is the young job's running lease: its token, holder and lease id. */
  private static boolean holds(YoungJob job, LeaseClaim claim, String workerId) {
    return job.state() == JobState.RUNNING
        && job.attempt().fencingToken() == claim.fencingToken()
        && job.attempt().workerId().equals(workerId)
        && claim.matches(LeaseId.stored(job.attempt().leaseIdSha256()));
  }

  /**
   * As {@link QueueCountRows#stats}, the young jobs counted in with the rows (their counts by queue
   * and state kept in memory, the ready ones among each queue's pending), without a fold.
   */
  static List<QueueCounts> stats(
      JdbcSession session,
      YoungJobs young,
      @Nullable String queue,
      Instant now,
      boolean unfinishedOnly)
      throws SQLException {
    QueueStats stats = QueueCountRows.counted(session, queue, now, unfinishedOnly);
    Instant due = YoungJobs.asStored(now);
    for (String in : queue == null ? young.queues() : List.of(queue)) {
      for (JobState state : YOUNG_STATES) {
        int count = young.count(in, state);
        if (count > 0 && !(unfinishedOnly && state.isTerminal())) {
          stats.add(in, state, count);
        }
      }
      for (YoungJob job : young.pendingIn(in)) {
        Instant runAt = YoungJobs.asStored(job.job().runAt());
        if (!runAt.isAfter(due)) {
          stats.addReady(in, 1, runAt);
        }
      }
    }
    return stats.counts(now);
  }
}
