package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.JobRowReader;
import io.antrean.coordinator.store.jdbc.JobRows;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The writer's statements for the rows of one Lease or one CompleteBatch, written set-wise: the
 * rows go to SQLite in a few multi-row statements ({@code UPDATE ... FROM (VALUES ...)} and
 * multi-row {@code INSERT}s), each looking its rows up by primary key or by {@code attempts_job},
 * instead of one statement per row. The lookups are pinned: {@code NOT INDEXED} (which leaves the
 * rowid lookup) or {@code INDEXED BY} on the table, and a unary {@code +} on each given column, so
 * no automatic index is built on the given rows. Left to itself, the planner may scan every job,
 * or every RUNNING job's index entry, and match each against the few rows given. Per statement the driver pays a fixed cost (reset, column names
 * read through JNI, the result set) that the profile of the real path showed to be a large part of
 * the writer's time for ten-job calls.
 *
 * <p>Each kind of statement comes in a few shapes, one per power of two up to {@value #MAX_ROWS}
 * rows, so {@code n} rows take one statement per bit of {@code n} and the connection's statement
 * cache holds every shape. What the rows become is exactly what the one-row statements made of
 * them: the same columns, the same conditions (fencing token, worker, lease id digest, state).
 */
final class SetWiseWrites {
  /** The largest shape; a call with more rows runs several of these. */
  static final int MAX_ROWS = 64;

  private static final String GRANT =
      "UPDATE jobs NOT INDEXED SET state = 'RUNNING', attempts = attempts + 1,"
          + " lease_token = lease_token + 1, lease_worker_id = ?, lease_expires_at = ?,"
          + " lease_id_sha256 = granted.column2, updated_at = ?"
          + " FROM (VALUES %s) AS granted"
          + " WHERE jobs.id = +granted.column1 AND jobs.state = 'PENDING' RETURNING "
          + JobRowReader.JOB_COLUMNS;

  private static final String OPEN_ATTEMPTS =
      "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at, outcome,"
          + " lease_id_sha256) VALUES %s";

  private static final String SUCCEED =
      "UPDATE jobs NOT INDEXED SET state = 'SUCCEEDED', result = done.column2,"
          + " result_content_type = done.column3, finished_at = ?, updated_at = ?,"
          + " lease_worker_id = NULL, lease_expires_at = NULL"
          + " FROM (VALUES %s) AS done"
          + " WHERE jobs.id = +done.column1 AND jobs.state = 'RUNNING'"
          + " AND jobs.lease_token = +done.column4 AND jobs.lease_worker_id = ?"
          + " AND jobs.lease_id_sha256 = +done.column5"
          // A job others depend on completes in WorkerWrites.completeWithDependents.
          + " AND NOT jobs.has_dependents RETURNING "
          + JobRowReader.JOB_COLUMNS;

  private static final String END_ATTEMPTS =
      "UPDATE attempts INDEXED BY attempts_job SET ended_at = ?, outcome = 'SUCCEEDED', error_kind = NULL,"
          + " error_type = NULL, error_message = NULL, stack_trace = NULL"
          + " FROM (VALUES %s) AS ended"
          + " WHERE attempts.job_id = +ended.column1 AND attempts.fencing_token = +ended.column2"
          + " AND attempts.outcome = 'RUNNING'";

  private static final Shapes GRANTS = new Shapes(GRANT, "(?, ?)");
  private static final Shapes OPENS = new Shapes(OPEN_ATTEMPTS, "(?, ?, ?, ?, ?, 'RUNNING', ?)");
  private static final Shapes SUCCEEDS = new Shapes(SUCCEED, "(?, ?, ?, ?, ?)");
  private static final Shapes ENDS = new Shapes(END_ATTEMPTS, "(?, ?)");

  private SetWiseWrites() {}

  /**
   * Leases the jobs the caller picked PENDING in this transaction, in the order picked, and opens
   * each one's history entry; the jobs carry the text of their new lease id.
   *
   * @throws IllegalStateException if a picked job is not PENDING any more (the pick was wrong)
   */
  static List<Job> grant(JdbcSession session, LeaseSpec spec, List<Long> ids, Instant now)
      throws SQLException {
    Map<Long, LeaseId> leaseIds = new HashMap<>();
    for (long id : ids) {
      leaseIds.put(id, LeaseId.generate());
    }
    Map<Long, Job> granted = new HashMap<>();
    for (int[] chunk : chunks(ids.size())) {
      PreparedStatement update = session.prepare(GRANTS.sql(chunk[1]));
      int index = 1;
      update.setString(index++, spec.workerId());
      update.setLong(index++, Micros.of(spec.expiresAt()));
      update.setLong(index++, Micros.of(now));
      for (long id : ids.subList(chunk[0], chunk[0] + chunk[1])) {
        update.setLong(index++, id);
        update.setBytes(index++, leaseIds.get(id).sha256());
      }
      for (Job job : JobRows.jobs(session, update)) {
        granted.put(job.id(), job.withLease(job.lease().withLeaseId(leaseIds.get(job.id()))));
      }
    }
    List<Job> inPickOrder = new ArrayList<>(ids.size());
    for (long id : ids) {
      Job job = granted.get(id);
      if (job == null) {
        throw new IllegalStateException("picked job " + id + " was not PENDING any more");
      }
      inPickOrder.add(job);
    }
    openAttempts(session, inPickOrder, now);
    return inPickOrder;
  }

  private static void openAttempts(JdbcSession session, List<Job> leased, Instant now)
      throws SQLException {
    for (int[] chunk : chunks(leased.size())) {
      PreparedStatement insert = session.prepare(OPENS.sql(chunk[1]));
      int index = 1;
      for (Job job : leased.subList(chunk[0], chunk[0] + chunk[1])) {
        insert.setLong(index++, job.id());
        insert.setInt(index++, job.attempts());
        insert.setString(index++, job.lease().workerId());
        insert.setLong(index++, job.lease().fencingToken());
        insert.setLong(index++, Micros.of(now));
        insert.setBytes(index++, job.lease().leaseId().sha256());
      }
      insert.executeUpdate();
    }
  }

  /**
   * Completes every job whose completion holds its lease (token, worker, lease id) and has no
   * dependents, and ends those leases' history entries; the others are left as they were, for the
   * caller to judge one by one.
   *
   * @param completions completions of distinct jobs (the store refuses a batch naming one twice)
   * @return the completed jobs by id
   */
  static Map<Long, Job> succeed(
      JdbcSession session, String workerId, List<Completion> completions, Instant now)
      throws SQLException {
    Map<Long, Job> done = new HashMap<>();
    Map<Long, Long> tokens = new HashMap<>();
    for (int[] chunk : chunks(completions.size())) {
      PreparedStatement update = session.prepare(SUCCEEDS.sql(chunk[1]));
      int index = 1;
      update.setLong(index++, Micros.of(now));
      update.setLong(index++, Micros.of(now));
      for (Completion c : completions.subList(chunk[0], chunk[0] + chunk[1])) {
        update.setLong(index++, c.jobId());
        update.setBytes(index++, c.result());
        update.setString(index++, c.resultContentType());
        update.setLong(index++, c.fencingToken());
        // Digests compared: timing cannot help build a matching lease id (see LeaseId).
        update.setBytes(index++, c.lease().leaseIdSha256());
        tokens.put(c.jobId(), c.fencingToken());
      }
      update.setString(index, workerId);
      for (Job job : JobRows.jobs(session, update)) {
        done.put(job.id(), job);
      }
    }
    endAttempts(session, new ArrayList<>(done.keySet()), tokens, now);
    return done;
  }

  private static void endAttempts(
      JdbcSession session, List<Long> jobIds, Map<Long, Long> tokens, Instant now)
      throws SQLException {
    for (int[] chunk : chunks(jobIds.size())) {
      PreparedStatement update = session.prepare(ENDS.sql(chunk[1]));
      int index = 1;
      update.setLong(index++, Micros.of(now));
      for (long jobId : jobIds.subList(chunk[0], chunk[0] + chunk[1])) {
        update.setLong(index++, jobId);
        update.setLong(index++, tokens.get(jobId));
      }
      update.executeUpdate();
    }
  }

  /** Every statement's text for {@code rows} rows (a power of two), for their query plans. */
  static List<String> statements(int rows) {
    return List.of(GRANTS.sql(rows), OPENS.sql(rows), SUCCEEDS.sql(rows), ENDS.sql(rows));
  }

  /**
   * {@code count} rows as chunks {@code {offset, size}}, largest first, each size a power of two up
   * to {@value #MAX_ROWS}: one statement per chunk.
   */
  static List<int[]> chunks(int count) {
    List<int[]> chunks = new ArrayList<>();
    int offset = 0;
    while (offset < count) {
      int size = Math.min(MAX_ROWS, Integer.highestOneBit(count - offset));
      chunks.add(new int[] {offset, size});
      offset += size;
    }
    return chunks;
  }

  /** One statement's text per number of rows, built once. */
  private static final class Shapes {
    private final String[] byPower;

    Shapes(String template, String row) {
      IntFunction<String> rows = n -> String.join(", ", Collections.nCopies(n, row));
      int powers = Integer.numberOfTrailingZeros(MAX_ROWS) + 1;
      byPower = new String[powers];
      for (int p = 0; p < powers; p++) {
        byPower[p] = template.formatted(rows.apply(1 << p));
      }
    }

    /** The text for {@code rows} rows, a power of two up to {@value #MAX_ROWS}. */
    String sql(int rows) {
      return byPower[Integer.numberOfTrailingZeros(rows)];
    }
  }
}
