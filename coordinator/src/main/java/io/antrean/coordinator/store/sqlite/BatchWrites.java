package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import io.antrean.coordinator.store.jdbc.JobRows;
import io.antrean.coordinator.store.jdbc.LeaseGrants;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The writes of a worker's hot path over many jobs at once: the leases on the jobs a lease picked,
 * and a batch of successes. Each statement changes up to {@value ChunkedStatement#MAX_CHUNK} jobs
 * ({@link ChunkedStatement}): the lease's joined by id to a {@code VALUES} list of their own
 * parameters ({@code UPDATE ... FROM}), the successes' picked by id with a CASE per column ({@link
 * #succeedSql}); their history entries are inserted from, or ended by a join to, a {@code VALUES}
 * list. One statement per job cost more than the rows it changed: sqlite-jdbc reads a statement's
 * column names anew on every execution, 31 of them for a RETURNING of a job. The successes return
 * only each job's id and queue, all their callers read: every column returned is copied by SQLite
 * and read through the driver one call at a time. A lease, and a batch of successes per queue,
 * count the jobs they moved in {@code queue_counts} with one upsert ({@link QueueCountRows#moved}),
 * where a trigger would run two statements per row.
 *
 * <p>Runs on the writer thread: nothing else writes between the pick and the grants, or between the
 * check of a lease and its completion.
 */
final class BatchWrites {
  private static final ChunkedStatement GRANT = new ChunkedStatement(BatchWrites::grantSql);
  private static final ChunkedStatement OPEN_ATTEMPTS =
      new ChunkedStatement(BatchWrites::openAttemptsSql);
  private static final ChunkedStatement SUCCEED =
      new ChunkedStatement(jobs -> succeedSql(jobs, JobRows.ID_AND_QUEUE));
  // The unary Complete's, which answers the whole job.
  private static final String SUCCEED_ONE = succeedSql(1, JobRowReader.JOB_COLUMNS);
  private static final ChunkedStatement END_ATTEMPTS =
      new ChunkedStatement(BatchWrites::endAttemptsSql);

  private BatchWrites() {}

  /**
   * Leases the jobs with these ids, which the caller picked PENDING in this transaction, in that
   * order: each row becomes RUNNING under its next fencing token and the digest of a new lease id,
   * and its history entry opens with the same digest. The returned jobs carry their lease id's
   * text.
   *
   * @throws IllegalStateException if a picked job is not PENDING any more (the pick was wrong)
   */
  static List<Job> grant(JdbcSession session, LeaseSpec spec, List<Long> ids, Instant now)
      throws SQLException {
    List<LeaseId> leaseIds = LeaseGrants.newLeaseIds(ids.size());
    Map<Long, Job> granted = new HashMap<>();
    int from = 0;
    for (int size : ChunkedStatement.chunks(ids.size())) {
      PreparedStatement update = session.prepare(GRANT.sql(size));
      int index = 1;
      update.setString(index++, spec.workerId());
      update.setLong(index++, Micros.of(spec.expiresAt()));
      update.setLong(index++, Micros.of(now));
      for (int i = from; i < from + size; i++) {
        update.setLong(index++, ids.get(i));
        update.setBytes(index++, leaseIds.get(i).sha256());
      }
      for (Job job : JobRows.jobs(session, update)) {
        granted.put(job.id(), job);
      }
      from += size;
    }
    List<Job> leased = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      Job job = granted.get(ids.get(i));
      if (job == null) {
        throw new IllegalStateException("picked job " + ids.get(i) + " was not PENDING any more");
      }
      leased.add(job.withLease(job.lease().withLeaseId(leaseIds.get(i))));
    }
    writeInChunks(
        session,
        OPEN_ATTEMPTS,
        leased,
        now,
        (insert, index, job) -> {
          insert.setLong(index, job.id());
          insert.setInt(index + 1, job.attempts());
          insert.setString(index + 2, job.lease().workerId());
          insert.setLong(index + 3, job.lease().fencingToken());
          insert.setBytes(index + 4, job.lease().leaseId().sha256());
          return index + 5;
        });
    QueueCountRows.moved(session, spec.queue(), JobState.PENDING, JobState.RUNNING, leased.size());
    return leased;
  }

  /**
   * Completes every job of {@code completions} that {@code workerId} still holds under the
   * completion's token and lease id, and ends those leases' history entries. A job others depend on
   * is left alone (it completes with its dependents, one by one). Returns the completed jobs'
   * queues by id.
   */
  static Map<Long, String> succeed(
      JdbcSession session, String workerId, List<Completion> completions, Instant now)
      throws SQLException {
    Map<Long, String> done = new HashMap<>();
    int from = 0;
    for (int size : ChunkedStatement.chunks(completions.size())) {
      List<Completion> chunk = completions.subList(from, from + size);
      JobRows.queuesById(succeedStatement(session, SUCCEED.sql(size), workerId, chunk, now), done);
      from += size;
    }
    List<Completion> succeeded = new ArrayList<>(done.size());
    for (Completion c : completions) {
      if (done.containsKey(c.jobId())) {
        succeeded.add(c);
      }
    }
    endAttempts(session, succeeded, now);
    Map<String, Integer> perQueue = new HashMap<>();
    for (String queue : done.values()) {
      perQueue.merge(queue, 1, Integer::sum);
    }
    for (Map.Entry<String, Integer> queue : perQueue.entrySet()) {
      QueueCountRows.moved(
          session, queue.getKey(), JobState.RUNNING, JobState.SUCCEEDED, queue.getValue());
    }
    return done;
  }

  /** As {@link #succeed} for one completion, returning the whole job after the change, if any. */
  static Optional<Job> succeedOne(
      JdbcSession session, String workerId, Completion completion, Instant now)
      throws SQLException {
    List<Job> done =
        JobRows.jobs(
            session, succeedStatement(session, SUCCEED_ONE, workerId, List.of(completion), now));
    if (done.isEmpty()) {
      return Optional.empty();
    }
    endAttempts(session, List.of(completion), now);
    QueueCountRows.moved(session, done.get(0).queue(), JobState.RUNNING, JobState.SUCCEEDED, 1);
    return Optional.of(done.get(0));
  }

  /** {@code sql}, one of {@link #succeedSql}'s for these completions, with their parameters. */
  private static PreparedStatement succeedStatement(
      JdbcSession session, String sql, String workerId, List<Completion> completions, Instant now)
      throws SQLException {
    PreparedStatement update = session.prepare(sql);
    int index = 1;
    update.setLong(index++, Micros.of(now));
    update.setLong(index++, Micros.of(now));
    for (Completion c : completions) {
      update.setLong(index++, c.jobId());
      update.setBytes(index++, c.result());
      update.setString(index++, c.resultContentType());
      update.setLong(index++, c.fencingToken());
      // Digests compared: timing cannot help build a matching lease id (see LeaseId).
      update.setBytes(index++, c.lease().leaseIdSha256());
    }
    update.setString(index, workerId);
    return update;
  }

  /** Ends the history entries of the leases these completions just ended. */
  private static void endAttempts(JdbcSession session, List<Completion> succeeded, Instant now)
      throws SQLException {
    writeInChunks(
        session,
        END_ATTEMPTS,
        succeeded,
        now,
        (update, index, c) -> {
          update.setLong(index, c.jobId());
          update.setLong(index + 1, c.fencingToken());
          return index + 2;
        });
  }

  /** Binds one item's parameters from {@code index} on; returns the index after them. */
  @FunctionalInterface
  private interface ItemBinder<T> {
    int bind(PreparedStatement statement, int index, T item) throws SQLException;
  }

  /**
   * Runs a statement that returns no rows once per chunk of {@code items}: the text for the chunk's
   * size from {@code chunked}, {@code now} as its first parameter, then each item's.
   */
  private static <T> void writeInChunks(
      JdbcSession session,
      ChunkedStatement chunked,
      List<T> items,
      Instant now,
      ItemBinder<T> binder)
      throws SQLException {
    int from = 0;
    for (int size : ChunkedStatement.chunks(items.size())) {
      PreparedStatement statement = session.prepare(chunked.sql(size));
      statement.setLong(1, Micros.of(now));
      int index = 2;
      for (T item : items.subList(from, from + size)) {
        index = binder.bind(statement, index, item);
      }
      statement.executeUpdate();
      from += size;
    }
  }

  /** Parameters: worker id, expiry, now (updated_at), then each job's id and lease-id digest. */
  static String grantSql(int jobs) {
    return "UPDATE jobs SET state = 'RUNNING', attempts = attempts + 1,"
        + " lease_token = lease_token + 1, lease_worker_id = ?, lease_expires_at = ?,"
        + " lease_id_sha256 = g.column2, updated_at = ?"
        + " FROM (VALUES "
        + rows(jobs, 2)
        + ") AS g WHERE jobs.id = g.column1 AND jobs.state = 'PENDING' RETURNING "
        + JobRowReader.JOB_COLUMNS;
  }

  /** Parameters: now (leased_at), then each job's id, attempt, worker id, token and digest. */
  static String openAttemptsSql(int jobs) {
    return "INSERT INTO attempts (leased_at, job_id, attempt, worker_id, fencing_token,"
        + " lease_id_sha256, outcome) SELECT ?, column1, column2, column3, column4, column5,"
        + " 'RUNNING' FROM (VALUES "
        + rows(jobs, 5)
        + ")";
  }

  /**
   * Parameters, numbered: ?1 now (finished_at), ?2 now (updated_at), then each completion's job id,
   * result, result content type, token and lease-id digest, then the worker id. The rows changed
   * come back as {@code returning}: a select list of {@code jobs}.
   *
   * <p>The rows are found by id in an IN list, and each takes its own values through a CASE on its
   * id. The form the lease uses, a join to a VALUES list ({@code UPDATE ... FROM}), cost more per
   * statement here than all the rest of a one-job completion (docs/benchmarks.md); a CASE walks at
   * most {@value ChunkedStatement#MAX_CHUNK} items per row.
   */
  static String succeedSql(int jobs, String returning) {
    StringBuilder ids = new StringBuilder();
    StringBuilder result = new StringBuilder("CASE id");
    StringBuilder contentType = new StringBuilder("CASE id");
    StringBuilder leaseHolds = new StringBuilder("CASE id");
    for (int i = 0; i < jobs; i++) {
      int id = 3 + 5 * i;
      ids.append(i == 0 ? "?" : ", ?").append(id);
      result.append(" WHEN ?").append(id).append(" THEN ?").append(id + 1);
      contentType.append(" WHEN ?").append(id).append(" THEN ?").append(id + 2);
      leaseHolds
          .append(" WHEN ?")
          .append(id)
          .append(" THEN lease_token = ?")
          .append(id + 3)
          .append(" AND lease_id_sha256 = ?")
          .append(id + 4);
    }
    return "UPDATE jobs SET state = 'SUCCEEDED', result = "
        + result
        + " END, result_content_type = "
        + contentType
        + " END, finished_at = ?1, updated_at = ?2, lease_worker_id = NULL,"
        + " lease_expires_at = NULL WHERE id IN ("
        + ids
        + ") AND state = 'RUNNING' AND lease_worker_id = ?"
        + (3 + 5 * jobs)
        + " AND "
        + leaseHolds
        + " END"
        // A job others depend on completes in WorkerWrites.completeWithDependents.
        + " AND NOT has_dependents RETURNING "
        + returning;
  }

  /** Parameters: now (ended_at), then each lease's job id and token. */
  static String endAttemptsSql(int jobs) {
    return "UPDATE attempts INDEXED BY attempts_job SET ended_at = ?, outcome = 'SUCCEEDED',"
        + " error_kind = NULL, error_type = NULL, error_message = NULL, stack_trace = NULL"
        + " FROM (VALUES "
        + rows(jobs, 2)
        + ") AS e WHERE attempts.job_id = e.column1 AND attempts.fencing_token = e.column2"
        + " AND attempts.outcome = 'RUNNING'";
  }

  /** {@code (?, ?), (?, ?)} for two rows of two. */
  private static String rows(int rows, int columns) {
    String row = "(" + String.join(", ", Collections.nCopies(columns, "?")) + ")";
    return String.join(", ", Collections.nCopies(rows, row));
  }
}
