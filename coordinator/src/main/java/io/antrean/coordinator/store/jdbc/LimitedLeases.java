package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueLimits;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Leasing in a queue that has concurrency limits, the same for both stores. The caller runs it
 * inside one atomic change that already serialises the queue's leases (SQLite: the one writer;
 * PostgreSQL: the queue's row locked {@code FOR UPDATE} by {@link QueueRows#readForLease}), so the
 * RUNNING counts read here stay true until the change commits.
 *
 * <p>Candidates are read in lease order, a bounded window at a time, each with its key's RUNNING
 * count from the partial index {@code jobs_running_by_key}; a key that is full is filtered out in
 * the query, so a backlog of one busy tenant's jobs costs one index probe per candidate, not a
 * scan. The jobs picked in a round are leased before the next round reads again, so the counts of
 * the next round include them.
 */
public final class LimitedLeases {
  /** Rounds of candidates per lease; what is left is leased by the next call. */
  private static final int MAX_ROUNDS = 4;

  /** Candidates read per wanted job in one round, so a few full keys do not end a round empty. */
  private static final int WINDOW_FACTOR = 4;

  private static final String COUNT_RUNNING =
      "SELECT count(*) FROM jobs WHERE state = 'RUNNING' AND queue = ?";

  private static final String RUNNING_OF_KEY =
      "(SELECT count(*) FROM jobs AS r WHERE r.state = 'RUNNING' AND r.queue = jobs.queue"
          + " AND r.concurrency_key = jobs.concurrency_key)";

  private static final String LEASE_ONE =
      "UPDATE jobs SET state = 'RUNNING', attempts = attempts + 1,"
          + " lease_token = lease_token + 1, lease_worker_id = ?, lease_expires_at = ?,"
          + " updated_at = ? WHERE id = ? AND state = 'PENDING' RETURNING "
          + JobRowReader.JOB_COLUMNS;

  private static final String OPEN_ATTEMPT =
      "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at, outcome)"
          + " VALUES (?, ?, ?, ?, ?, 'RUNNING')";

  /** What differs between the two stores for this work. */
  public interface Statements {
    /** A statement for this SQL on the connection of the current atomic change. */
    PreparedStatement prepare(String sql) throws SQLException;

    /** Binds an instant the way the store's columns hold it. */
    void setInstant(PreparedStatement statement, int index, Instant value) throws SQLException;

    /** Appended to the candidate query: row locks where the store has them, else empty. */
    String candidateLocking();
  }

  private LimitedLeases() {}

  /**
   * Leases what the limits allow, in lease order, and opens each leased job's history entry.
   *
   * @return the leased jobs in grant order
   */
  public static List<Job> lease(
      Statements statements, JobRowReader reader, LeaseSpec spec, QueueLimits limits, Instant now)
      throws SQLException {
    int wanted = spec.maxJobs();
    if (limits.maxRunning() != null) {
      wanted = Math.min(wanted, limits.maxRunning() - runningIn(statements, spec.queue()));
    }
    List<Job> leased = new ArrayList<>();
    for (int round = 0; round < MAX_ROUNDS && leased.size() < wanted; round++) {
      int missing = wanted - leased.size();
      int window = limits.maxRunningPerKey() == null ? missing : missing * WINDOW_FACTOR;
      List<Candidate> candidates = candidates(statements, spec, limits, now, window);
      List<Long> picked = pick(candidates, limits.maxRunningPerKey(), missing);
      for (long id : picked) {
        leased.add(leaseOne(statements, reader, spec, id, now));
      }
      if (candidates.size() < window) {
        break; // the queue has nothing more that is ready
      }
    }
    return Leases.inGrantOrder(leased);
  }

  /** A ready job and its key's RUNNING count at the time of reading. */
  record Candidate(long id, @Nullable String key, int runningOfKey) {}

  /**
   * The candidates to lease, in order, at most {@code missing}: those without a key, and those
   * whose key has room left, counting the ones picked before them.
   */
  static List<Long> pick(List<Candidate> candidates, @Nullable Integer perKey, int missing) {
    List<Long> picked = new ArrayList<>(Math.min(missing, candidates.size()));
    Map<String, Integer> pickedOfKey = new HashMap<>();
    for (Candidate c : candidates) {
      if (picked.size() == missing) {
        break;
      }
      if (c.key() != null && perKey != null) {
        int already = pickedOfKey.getOrDefault(c.key(), 0);
        if (c.runningOfKey() + already >= perKey) {
          continue;
        }
        pickedOfKey.put(c.key(), already + 1);
      }
      picked.add(c.id());
    }
    return picked;
  }

  private static int runningIn(Statements statements, String queue) throws SQLException {
    PreparedStatement count = statements.prepare(COUNT_RUNNING);
    count.setString(1, queue);
    try (ResultSet row = count.executeQuery()) {
      row.next();
      return row.getInt(1);
    }
  }

  static String candidateSql(int typeCount, boolean perKey, String locking) {
    String typeFilter =
        typeCount == 0
            ? ""
            : " AND type IN (" + String.join(", ", Collections.nCopies(typeCount, "?")) + ")";
    return "SELECT id, concurrency_key, "
        + (perKey ? RUNNING_OF_KEY : "0")
        + " FROM jobs WHERE state = 'PENDING' AND queue = ? AND run_at <= ?"
        + typeFilter
        + (perKey ? " AND (concurrency_key IS NULL OR " + RUNNING_OF_KEY + " < ?)" : "")
        + " ORDER BY priority DESC, run_at, id LIMIT ?"
        + locking;
  }

  private static List<Candidate> candidates(
      Statements statements, LeaseSpec spec, QueueLimits limits, Instant now, int window)
      throws SQLException {
    List<String> types = List.copyOf(spec.types());
    boolean perKey = limits.maxRunningPerKey() != null;
    PreparedStatement select =
        statements.prepare(candidateSql(types.size(), perKey, statements.candidateLocking()));
    int index = 1;
    select.setString(index++, spec.queue());
    statements.setInstant(select, index++, now);
    for (String type : types) {
      select.setString(index++, type);
    }
    if (perKey) {
      select.setInt(index++, limits.maxRunningPerKey());
    }
    select.setInt(index, window);
    List<Candidate> candidates = new ArrayList<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        candidates.add(new Candidate(rows.getLong(1), rows.getString(2), rows.getInt(3)));
      }
    }
    return candidates;
  }

  private static Job leaseOne(
      Statements statements, JobRowReader reader, LeaseSpec spec, long id, Instant now)
      throws SQLException {
    PreparedStatement update = statements.prepare(LEASE_ONE);
    update.setString(1, spec.workerId());
    statements.setInstant(update, 2, spec.expiresAt());
    statements.setInstant(update, 3, now);
    update.setLong(4, id);
    List<Job> jobs = reader.jobs(update);
    if (jobs.size() != 1) {
      throw new IllegalStateException("candidate job " + id + " was not PENDING any more");
    }
    Job job = jobs.get(0);
    PreparedStatement attempt = statements.prepare(OPEN_ATTEMPT);
    attempt.setLong(1, job.id());
    attempt.setInt(2, job.attempts());
    attempt.setString(3, job.lease().workerId());
    attempt.setLong(4, job.lease().fencingToken());
    statements.setInstant(attempt, 5, now);
    attempt.executeUpdate();
    return job;
  }
}
