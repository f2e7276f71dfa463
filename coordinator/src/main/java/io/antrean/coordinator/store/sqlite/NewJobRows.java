package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.ProducerWrites;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The rows of new {@link #keyless} jobs (no idempotency key, no unique key: nothing to look up
 * before the insert), inserted up to {@value ChunkedStatement#MAX_CHUNK} to a statement: a one-row
 * insert cost about twice a row's share of a multi-row one, and its savepoint in a group commit
 * half as much again (docs/benchmarks.md, "New jobs in multi-row inserts"). Runs where the writer's
 * connection is held.
 */
final class NewJobRows {
  private static final ChunkedStatement INSERT = new ChunkedStatement(NewJobRows::insertSql);

  private NewJobRows() {}

  /**
   * The Enqueue of jobs that are all {@link #keyless} and wait for no other job: their rows are all
   * it writes, so a group commit may insert them in statements shared with the next such Enqueue
   * ({@link GroupCommit}).
   */
  record PlainEnqueue(List<NewJob> jobs, Instant now) {
    /** This Enqueue if all its jobs qualify, else null. */
    @Nullable
    static PlainEnqueue of(List<NewJob> jobs, Instant now) {
      for (NewJob job : jobs) {
        if (!keyless(job) || job.dependsOn().any()) {
          return null;
        }
      }
      return new PlainEnqueue(jobs, now);
    }

    /** Stores its jobs in statements of their own, as a group does when it cannot share them. */
    List<EnqueueResult> storeAlone(JdbcSession session) throws SQLException {
      return enqueue(session, jobs, now);
    }
  }

  /** Whether the job has neither an idempotency key nor a unique key to look up first. */
  static boolean keyless(NewJob job) {
    return job.idempotencyKey() == null && job.uniqueKey() == null;
  }

  /** Stores {@link #keyless} jobs at one {@code now}, in order, as an Enqueue returns them. */
  static List<EnqueueResult> enqueue(JdbcSession session, List<NewJob> jobs, Instant now)
      throws SQLException {
    return asNew(insert(session, jobs, now));
  }

  /** Inserts {@link #keyless} jobs stored at one {@code now}, in order; returns them as stored. */
  static List<Job> insert(JdbcSession session, List<NewJob> jobs, Instant now) throws SQLException {
    return insert(session, jobs, Collections.nCopies(jobs.size(), now));
  }

  /**
   * Inserts {@link #keyless} jobs, each stored at its own {@code now}, in order; returns them as
   * stored, in the same order.
   *
   * @throws IllegalStateException if a statement returned another number of ids than it inserted
   */
  static List<Job> insert(JdbcSession session, List<NewJob> jobs, List<Instant> nows)
      throws SQLException {
    List<Job> stored = new ArrayList<>(jobs.size());
    int from = 0;
    for (int size : ChunkedStatement.chunks(jobs.size())) {
      PreparedStatement insert = session.prepare(INSERT.sql(size));
      int index = 1;
      for (int i = from; i < from + size; i++) {
        index = ProducerWrites.bindJob(session.dialect(), insert, index, jobs.get(i), nows.get(i));
      }
      long[] ids = ProducerWrites.insertedIds(insert, size);
      for (int i = 0; i < size; i++) {
        NewJob job = jobs.get(from + i);
        session.dialect().storePayloadApart(session, ids[i], job.payload());
        stored.add(session.dialect().reader().inserted(ids[i], job, nows.get(from + i)));
      }
      from += size;
    }
    return stored;
  }

  /** The jobs as an Enqueue returns them: stored anew, none deduplicated. */
  static List<EnqueueResult> asNew(List<Job> jobs) {
    List<EnqueueResult> results = new ArrayList<>(jobs.size());
    for (Job job : jobs) {
      results.add(new EnqueueResult(job, false));
    }
    return results;
  }

  /** Parameters: each job's 17 ({@link ProducerWrites#bindJob}). */
  static String insertSql(int jobs) {
    return "INSERT INTO jobs "
        + ProducerWrites.JOB_COLUMNS
        + " VALUES "
        + String.join(", ", Collections.nCopies(jobs, ProducerWrites.JOB_ROW))
        + " RETURNING id";
  }
}
