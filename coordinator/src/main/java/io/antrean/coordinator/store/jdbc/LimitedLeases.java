package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.AnswerBudget;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.RateLimit;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Leasing in a queue that has concurrency or rate limits, the same for both stores. The caller runs
 * it inside one atomic change that already serialises the queue's leases (SQLite: the one writer;
 * PostgreSQL: the queue's row locked {@code FOR UPDATE}), so the RUNNING counts and token buckets
 * read here stay true until the change commits.
 *
 * <p>Candidates are read in lease order, a bounded window at a time, each with its key's RUNNING
 * count from the partial index {@code jobs_running_by_key}; a key that is full, or whose rate
 * bucket is empty, is filtered out in the query, so a backlog of one busy tenant's jobs costs one
 * index probe per candidate, not a scan. The jobs picked in a round are leased before the next
 * round reads again, so the counts of the next round include them. The buckets are written once, at
 * the end.
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

  // Parameters: now (epoch micros), tokens per micro. A key never used has no row: full.
  private static final String KEY_BUCKET_EMPTY =
      "EXISTS (SELECT 1 FROM rate_buckets AS b WHERE b.queue = jobs.queue"
          + " AND b.concurrency_key = jobs.concurrency_key"
          + " AND b.tokens < 1 AND b.tokens + (? - b.refilled_at_micros) * ? < 1)";

  private LimitedLeases() {}

  /**
   * Leases what the limits allow, in lease order, opens each leased job's history entry and takes a
   * token per lease from the buckets.
   *
   * @return the leased jobs in grant order
   */
  public static List<Job> lease(
      JdbcSession session, LeaseSpec spec, QueueRows.ForLease queue, Instant now)
      throws SQLException {
    QueueLimits limits = queue.limits();
    long nowMicros = micros(now);
    int wanted = spec.maxJobs();
    if (limits.maxRunning() != null) {
      wanted = Math.min(wanted, limits.maxRunning() - runningIn(session, spec.queue()));
    }
    TokenBucket queueBucket = null;
    if (limits.rate() != null) {
      queueBucket =
          (queue.bucket() == null ? TokenBucket.full(limits.rate(), nowMicros) : queue.bucket())
              .refill(limits.rate(), nowMicros);
      wanted = Math.min(wanted, queueBucket.whole());
    }
    KeyBuckets keyBuckets =
        limits.ratePerKey() == null
            ? null
            : new KeyBuckets(session, spec.queue(), limits.ratePerKey(), nowMicros);
    List<Job> leased = new ArrayList<>();
    long payloadBytes = 0;
    for (int round = 0;
        round < MAX_ROUNDS && leased.size() < wanted && AnswerBudget.hasRoom(payloadBytes);
        round++) {
      int missing = wanted - leased.size();
      int window = limits.keyed() ? missing * WINDOW_FACTOR : missing;
      List<Candidate> candidates = candidates(session, spec, limits, nowMicros, now, window);
      for (Candidate c :
          pick(candidates, limits.maxRunningPerKey(), missing, keyBuckets, payloadBytes)) {
        leased.add(LeaseGrants.grant(session, spec, c.id(), now));
        payloadBytes += c.payloadBytes();
      }
      if (candidates.size() < window) {
        break; // the queue has nothing more that is ready
      }
    }
    if (queueBucket != null && !leased.isEmpty()) {
      queueBucket = queueBucket.take(leased.size());
      QueueRows.saveQueueBucket(session, spec.queue(), queueBucket);
    }
    if (keyBuckets != null) {
      keyBuckets.save();
    }
    if (leased.size() < spec.maxJobs()) {
      reportNextToken(session, spec.queue(), limits, queueBucket, nowMicros);
    }
    return Leases.inGrantOrder(leased);
  }

  /**
   * A lease that got fewer jobs than it asked for, in a queue with a rate limit whose bucket is
   * empty, reports when the earliest empty bucket (the queue's, or any key's) has a token again, so
   * the Lease calls that wait then look again ({@link JdbcSession#leasableAt}). A key's bucket may
   * be empty with no job of the key ready; its report only makes the waiting calls look once more.
   */
  private static void reportNextToken(
      JdbcSession session,
      String queue,
      QueueLimits limits,
      @Nullable TokenBucket queueBucket,
      long nowMicros)
      throws SQLException {
    long earliest = Long.MAX_VALUE;
    if (queueBucket != null && queueBucket.whole() < 1) {
      earliest = queueBucket.nextWholeAtMicros(limits.rate());
    }
    if (limits.ratePerKey() != null) {
      earliest =
          Math.min(
              earliest,
              QueueRows.nextKeyTokenMicros(session, queue, limits.ratePerKey(), nowMicros));
    }
    if (earliest != Long.MAX_VALUE) {
      session.leasableAt(queue, Instant.EPOCH.plus(earliest, ChronoUnit.MICROS));
    }
  }

  /**
   * A lease in a queue that had limits at the caller's last look, in one transaction where other
   * processes lease the same queue: locks the queue's row with {@link
   * JdbcDialect#lockRowsSkipLocked}, so the limited leases of every process in this queue take
   * turns (one that finds the row locked reads no row, leases the plain way, which passes over a
   * queue with limits, and answers empty at once), then leases through {@link #lease}, or the plain
   * way ({@link JdbcDialect#lease}) if the limits are gone.
   */
  public static List<Job> leaseLocked(JdbcSession session, LeaseSpec spec, Instant now)
      throws SQLException {
    QueueRows.ForLease queue =
        QueueRows.readForLease(
            session.prepare(QueueRows.forLeaseSql(session.dialect().lockRowsSkipLocked())),
            spec.queue());
    if (queue.paused()) {
      return List.of();
    }
    if (!queue.limits().limited()) {
      return session.dialect().lease(session, spec, now);
    }
    List<Job> leased = lease(session, spec, queue, now);
    if (!leased.isEmpty()) {
      // Leases that found the row locked meanwhile answered empty: have them look again.
      session.jobsReady(spec.queue());
    }
    return leased;
  }

  /** A ready job, its key's RUNNING count at the time of reading and its payload's length. */
  record Candidate(long id, @Nullable String key, int runningOfKey, long payloadBytes) {}

  /**
   * The candidates to lease, in order, at most {@code missing} and while the payloads taken, {@code
   * takenBytes} before these, leave room ({@link AnswerBudget}): those without a key, and those
   * whose key has room left (RUNNING below the limit and a token in its bucket), counting the ones
   * picked before them.
   */
  static List<Candidate> pick(
      List<Candidate> candidates,
      @Nullable Integer perKey,
      int missing,
      @Nullable KeyBuckets keyBuckets,
      long takenBytes)
      throws SQLException {
    List<Candidate> picked = new ArrayList<>(Math.min(missing, candidates.size()));
    Map<String, Integer> pickedOfKey = new HashMap<>();
    long bytes = takenBytes;
    for (Candidate c : candidates) {
      if (picked.size() == missing || !AnswerBudget.hasRoom(bytes)) {
        break;
      }
      if (c.key() != null) {
        int already = pickedOfKey.getOrDefault(c.key(), 0);
        if (perKey != null && c.runningOfKey() + already >= perKey) {
          continue;
        }
        if (keyBuckets != null && !keyBuckets.tryTake(c.key())) {
          continue;
        }
        pickedOfKey.put(c.key(), already + 1);
      }
      picked.add(c);
      bytes += c.payloadBytes();
    }
    return picked;
  }

  /** The per-key buckets this lease has read and changed; written back by {@link #save}. */
  static final class KeyBuckets {
    private final JdbcSession session;
    private final String queue;
    private final RateLimit rate;
    private final long nowMicros;
    private final Map<String, TokenBucket> buckets = new HashMap<>();
    private final Map<String, TokenBucket> changed = new HashMap<>();

    KeyBuckets(JdbcSession session, String queue, RateLimit rate, long nowMicros) {
      this.session = session;
      this.queue = queue;
      this.rate = rate;
      this.nowMicros = nowMicros;
    }

    /** Takes a token of the key's bucket if it has one. */
    boolean tryTake(String key) throws SQLException {
      TokenBucket bucket = buckets.get(key);
      if (bucket == null) {
        TokenBucket stored = QueueRows.keyBucket(session, queue, key);
        bucket =
            (stored == null ? TokenBucket.full(rate, nowMicros) : stored).refill(rate, nowMicros);
      }
      if (bucket.whole() < 1) {
        buckets.put(key, bucket);
        return false;
      }
      TokenBucket after = bucket.take(1);
      buckets.put(key, after);
      changed.put(key, after);
      return true;
    }

    void save() throws SQLException {
      for (Map.Entry<String, TokenBucket> e : changed.entrySet()) {
        QueueRows.saveKeyBucket(session, queue, e.getKey(), e.getValue());
      }
    }
  }

  private static int runningIn(JdbcSession session, String queue) throws SQLException {
    PreparedStatement count = session.prepare(COUNT_RUNNING);
    count.setString(1, queue);
    try (ResultSet row = count.executeQuery()) {
      row.next();
      return row.getInt(1);
    }
  }

  static String candidateSql(
      int typeCount, boolean perKey, boolean ratePerKey, String payloadLength, String locking) {
    String typeFilter =
        typeCount == 0
            ? ""
            : " AND type IN (" + String.join(", ", Collections.nCopies(typeCount, "?")) + ")";
    String keyFilter = "";
    if (perKey && ratePerKey) {
      keyFilter =
          " AND (concurrency_key IS NULL OR ("
              + RUNNING_OF_KEY
              + " < ? AND NOT "
              + KEY_BUCKET_EMPTY
              + "))";
    } else if (perKey) {
      keyFilter = " AND (concurrency_key IS NULL OR " + RUNNING_OF_KEY + " < ?)";
    } else if (ratePerKey) {
      keyFilter = " AND (concurrency_key IS NULL OR NOT " + KEY_BUCKET_EMPTY + ")";
    }
    return "SELECT id, concurrency_key, "
        + (perKey ? RUNNING_OF_KEY : "0")
        + ", "
        + payloadLength
        + " FROM jobs WHERE state = 'PENDING' AND queue = ? AND run_at <= ?"
        + typeFilter
        + keyFilter
        + " ORDER BY priority DESC, run_at, id LIMIT ?"
        + locking;
  }

  private static List<Candidate> candidates(
      JdbcSession session,
      LeaseSpec spec,
      QueueLimits limits,
      long nowMicros,
      Instant now,
      int window)
      throws SQLException {
    List<String> types = List.copyOf(spec.types());
    boolean perKey = limits.maxRunningPerKey() != null;
    boolean ratePerKey = limits.ratePerKey() != null;
    PreparedStatement select =
        session.prepare(
            candidateSql(
                types.size(),
                perKey,
                ratePerKey,
                session.dialect().payloadLengthSql(),
                session.dialect().lockRowsSkipLocked()));
    int index = 1;
    select.setString(index++, spec.queue());
    session.dialect().setInstant(select, index++, now);
    for (String type : types) {
      select.setString(index++, type);
    }
    if (perKey) {
      select.setInt(index++, limits.maxRunningPerKey());
    }
    if (ratePerKey) {
      select.setLong(index++, nowMicros);
      select.setDouble(index++, limits.ratePerKey().tokensPerMicro());
    }
    select.setInt(index, window);
    List<Candidate> candidates = new ArrayList<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        candidates.add(
            new Candidate(rows.getLong(1), rows.getString(2), rows.getInt(3), rows.getLong(4)));
      }
    }
    return candidates;
  }

  /** Ready jobs with a key that is at its RUNNING cap or has an empty rate bucket now. */
  static long countKeyHeld(
      JdbcSession session, String queue, QueueLimits limits, long nowMicros, Instant now)
      throws SQLException {
    boolean perKey = limits.maxRunningPerKey() != null;
    boolean ratePerKey = limits.ratePerKey() != null;
    String full =
        perKey && ratePerKey
            ? "(" + RUNNING_OF_KEY + " >= ? OR " + KEY_BUCKET_EMPTY + ")"
            : perKey ? RUNNING_OF_KEY + " >= ?" : KEY_BUCKET_EMPTY;
    PreparedStatement select =
        session.prepare(
            "SELECT count(*) FROM jobs WHERE state = 'PENDING' AND queue = ? AND run_at <= ?"
                + " AND concurrency_key IS NOT NULL AND "
                + full);
    int index = 1;
    select.setString(index++, queue);
    session.dialect().setInstant(select, index++, now);
    if (perKey) {
      select.setInt(index++, limits.maxRunningPerKey());
    }
    if (ratePerKey) {
      select.setLong(index++, nowMicros);
      select.setDouble(index, limits.ratePerKey().tokensPerMicro());
    }
    try (ResultSet row = select.executeQuery()) {
      row.next();
      return row.getLong(1);
    }
  }

  static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }
}
