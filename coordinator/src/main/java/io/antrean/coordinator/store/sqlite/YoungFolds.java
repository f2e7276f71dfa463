package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.ProducerWrites;
import io.antrean.coordinator.store.sqlite.young.YoungAttempt;
import io.antrean.coordinator.store.sqlite.young.YoungJobs;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the young jobs into the database, each with its own id, as the rows the operations that
 * made them would have written: a PENDING job as a plain Enqueue's row; a RUNNING or SUCCEEDED one
 * as its row after its lease (and completion), written once in that state, with its attempt's
 * history entry. The insert triggers count each row under its state. Then forgets them ({@link
 * YoungJobs#folded}) within the same group: a fold that does not commit leaves them young. Runs
 * where the writer's connection is held.
 */
final class YoungFolds {
  private static final ChunkedStatement INSERT_PENDING =
      new ChunkedStatement(rows -> insertSql(JobState.PENDING, rows));
  private static final Map<JobState, ChunkedStatement> INSERT_LEASED =
      new EnumMap<>(
          Map.of(
              JobState.RUNNING,
              new ChunkedStatement(rows -> insertSql(JobState.RUNNING, rows)),
              JobState.SUCCEEDED,
              new ChunkedStatement(rows -> insertSql(JobState.SUCCEEDED, rows))));
  private static final ChunkedStatement INSERT_ATTEMPTS =
      new ChunkedStatement(YoungFolds::attemptsSql);
  // After a job's 17 columns: the lease's holder, expiry and digest, progress, and the result.
  private static final String LEASED_COLUMNS =
      ", attempts, lease_token, lease_worker_id, lease_expires_at, lease_id_sha256, progress,"
          + " finished_at, result, result_content_type)";
  private static final String LEASED_VALUES =
      ", 1, " + YoungJobs.FIRST_TOKEN + ", ?, ?, ?, ?, ?, ?, ?)";

  private YoungFolds() {}

  /** Writes every young job and forgets them; returns how many. */
  static int fold(JdbcSession session, YoungJobs young) throws SQLException {
    List<YoungJob> jobs = young.all();
    write(session, jobs);
    young.folded();
    return jobs.size();
  }

  /**
   * Writes these young jobs, the oldest ({@link YoungJobs#oldestBeyond}), and forgets them; returns
   * how many.
   */
  static int fold(JdbcSession session, YoungJobs young, List<YoungJob> oldest) throws SQLException {
    write(session, oldest);
    young.folded(oldest);
    return oldest.size();
  }

  private static void write(JdbcSession session, List<YoungJob> jobs) throws SQLException {
    Map<JobState, List<YoungJob>> byState = new EnumMap<>(JobState.class);
    for (YoungJob j : jobs) {
      byState.computeIfAbsent(j.state(), s -> new ArrayList<>()).add(j);
    }
    for (Map.Entry<JobState, List<YoungJob>> state : byState.entrySet()) {
      insert(session, state.getKey(), state.getValue());
    }
    List<YoungJob> leased = new ArrayList<>(jobs.size());
    leased.addAll(byState.getOrDefault(JobState.RUNNING, List.of()));
    leased.addAll(byState.getOrDefault(JobState.SUCCEEDED, List.of()));
    insertAttempts(session, leased);
    for (YoungJob j : jobs) {
      session.dialect().storePayloadApart(session, j.id(), j.job().payload());
    }
  }

  private static void insert(JdbcSession session, JobState state, List<YoungJob> jobs)
      throws SQLException {
    ChunkedStatement text = state == JobState.PENDING ? INSERT_PENDING : INSERT_LEASED.get(state);
    int from = 0;
    for (int size : ChunkedStatement.chunks(jobs.size())) {
      PreparedStatement insert = session.prepare(text.sql(size));
      int index = 1;
      for (YoungJob j : jobs.subList(from, from + size)) {
        insert.setLong(index++, j.id());
        index =
            ProducerWrites.bindJob(
                session.dialect(), insert, index, j.job(), j.createdAt(), j.updatedAt());
        if (state != JobState.PENDING) {
          index = bindLease(session, insert, index, j.attempt());
        }
      }
      insert.executeUpdate();
      from += size;
    }
  }

  /** Binds {@link #LEASED_VALUES}; a completion let go of the lease's holder and expiry. */
  private static int bindLease(
      JdbcSession session, PreparedStatement insert, int first, YoungAttempt attempt)
      throws SQLException {
    int i = first;
    boolean running = !attempt.succeeded();
    insert.setString(i++, running ? attempt.workerId() : null);
    session.dialect().setNullableInstant(insert, i++, running ? attempt.expiresAt() : null);
    insert.setBytes(i++, attempt.leaseIdSha256());
    insert.setString(i++, attempt.progress());
    session.dialect().setNullableInstant(insert, i++, attempt.finishedAt());
    insert.setBytes(i++, attempt.result());
    insert.setString(i++, attempt.resultContentType());
    return i;
  }

  /** The history entries of the leased jobs' first attempts: open, or ended in success. */
  private static void insertAttempts(JdbcSession session, List<YoungJob> leased)
      throws SQLException {
    int from = 0;
    for (int size : ChunkedStatement.chunks(leased.size())) {
      PreparedStatement insert = session.prepare(INSERT_ATTEMPTS.sql(size));
      int i = 1;
      for (YoungJob j : leased.subList(from, from + size)) {
        YoungAttempt attempt = j.attempt();
        insert.setLong(i++, j.id());
        insert.setString(i++, attempt.workerId());
        insert.setLong(i++, attempt.fencingToken());
        session.dialect().setInstant(insert, i++, attempt.leasedAt());
        insert.setBytes(i++, attempt.leaseIdSha256());
        insert.setString(i++, j.state().name());
        session.dialect().setNullableInstant(insert, i++, attempt.finishedAt());
      }
      insert.executeUpdate();
      from += size;
    }
  }

  /**
   * The id the next job stored will get: after every id the jobs' table ever held, AUTOINCREMENT's
   * high mark, which an insert with its own id raises too and a deleted job does not lower.
   */
  static long nextJobId(JdbcSession session) throws SQLException {
    try (ResultSet row =
        session.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'jobs'").executeQuery()) {
      return row.next() ? row.getLong(1) + 1 : 1;
    }
  }

  /**
   * Parameters: each job's id, then its 17 ({@link ProducerWrites#bindJob}), then for a RUNNING or
   * SUCCEEDED job its lease's 7 ({@link #bindLease}).
   */
  static String insertSql(JobState state, int jobs) {
    String values = ProducerWrites.JOB_ROW.substring(1, ProducerWrites.JOB_ROW.length() - 1);
    String columns =
        ProducerWrites.JOB_COLUMNS.substring(1, ProducerWrites.JOB_COLUMNS.length() - 1);
    String row;
    if (state == JobState.PENDING) {
      row = "(?, " + values + ")";
      columns = columns + ")";
    } else {
      row = "(?, " + values.replace("'PENDING'", "'" + state.name() + "'") + LEASED_VALUES;
      columns = columns + LEASED_COLUMNS;
    }
    return "INSERT INTO jobs (id, "
        + columns
        + " VALUES "
        + String.join(", ", Collections.nCopies(jobs, row));
  }

  /** Parameters per entry: job, holder, token, leased at, lease id digest, outcome, ended at. */
  private static String attemptsSql(int rows) {
    return "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at,"
        + " lease_id_sha256, outcome, ended_at) VALUES "
        + String.join(", ", Collections.nCopies(rows, "(?, 1, ?, ?, ?, ?, ?, ?)"));
  }
}
