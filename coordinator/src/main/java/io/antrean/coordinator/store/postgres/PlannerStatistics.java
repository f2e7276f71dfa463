package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.store.jdbc.JdbcSession;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Analyzes the jobs table when PostgreSQL's planner is far wrong about how many jobs are pending.
 *
 * <p>The planner estimates how many jobs are pending from the statistics of the last {@code
 * ANALYZE}, and plans the statements that read pending jobs from that estimate: the limited queues'
 * lease, the queue counts, the listings. A fresh installation or a burst after a quiet spell leaves
 * it believing about one job is pending while thousands are; a backlog run down since leaves it
 * believing thousands are while none is. The lease of a queue without limits ({@code lease_jobs})
 * no longer depends on it: since migration V15 it walks {@code jobs_pending} in order whatever the
 * statistics say; before it, with autovacuum's analyzes alone (it looks at most once a minute), a
 * lease at 500 jobs/s read 2,700 buffers a call instead of 27 (docs/benchmarks.md, "PostgreSQL:
 * statistics that keep up" and "PostgreSQL: the lease's plan pinned, analyzes when the count is
 * wrong").
 *
 * <p>An analyze has a price of its own: it samples the table, and every connection plans its
 * statements again after it. At 500 jobs/s, one run whenever a tenth of the table had changed (as
 * this duty did before) made one half-second in ten seconds hold 40 jobs that waited 10 to 75 ms
 * for their handler. So {@link #runOnce} analyzes only when both hold: the table changed enough
 * since its last analyze ({@link #MIN_CHANGES} plus {@link #CHANGED_FRACTION} of its rows, the
 * server's own count, which it keeps a second or so after the commits), and the planner's estimate
 * of the pending jobs is off by more than a factor of {@link #MISCOUNT} either way, with at least
 * {@link #MIN_PENDING} jobs on the larger side. The pending jobs are counted only as far as that
 * takes, and never past {@link #MAX_COUNTED}, so a backlog of millions costs no more than a small
 * one. A table whose statistics count its pending jobs well is left to autovacuum however much of
 * it changes; the pending jobs are counted again only once as much has changed since the last
 * count.
 *
 * <p>The analyze runs under a transaction-scoped advisory lock, so coordinators sharing the schema
 * do not analyze it together (the one that finds the lock held skips its turn). The table's
 * statistics targets are low (migration V11), so an analyze samples 3,000 rows. {@link #runOnce} is
 * thread-safe; the store's timer calls {@link #runScheduled} every {@link #INTERVAL_MILLIS}.
 */
final class PlannerStatistics {
  private static final Logger log = LoggerFactory.getLogger(PlannerStatistics.class);

  static final long INTERVAL_MILLIS = 1_000;
  static final long MIN_CHANGES = 500;
  static final double CHANGED_FRACTION = 0.1;
  static final long MIN_PENDING = 500;
  static final long MISCOUNT = 2;
  static final long MAX_COUNTED = 10_000;

  private static final String CHANGES =
      "SELECT s.n_mod_since_analyze, greatest(c.reltuples, 0)"
          + " FROM pg_stat_user_tables AS s JOIN pg_class AS c ON c.oid = s.relid"
          + " WHERE s.relid = 'jobs'::regclass";
  // The predicate of the statements that read pending jobs, so the estimate is theirs.
  private static final String PLANNED_PENDING =
      "EXPLAIN SELECT 1 FROM jobs WHERE state = 'PENDING'";
  private static final Pattern PLANNED_ROWS = Pattern.compile(" rows=(\\d+) ");
  private static final String PENDING =
      "SELECT count(*) FROM (SELECT 1 FROM jobs WHERE state = 'PENDING' LIMIT ?) AS pending";
  // The lock: "antr" (0x616e7472) in the high 32 bits, the oid of this schema's jobs table in the
  // low ones, so installations on other schemas do not share it.
  private static final String LOCK =
      "SELECT pg_try_advisory_xact_lock((1634628722::bigint << 32) | 'jobs'::regclass::oid::bigint)";
  private static final String ANALYZE = "ANALYZE jobs";

  private final PooledTransactions db;
  private final OutageLog outages =
      new OutageLog(log, "keeping the planner statistics of the jobs table", "trying every second");

  PlannerStatistics(PooledTransactions db) {
    this.db = db;
  }

  /** What one turn did. */
  enum Turn {
    /** Too little of the table changed since its last analyze, or since the last count. */
    FEW_CHANGES,
    /** The pending jobs were counted, and the planner's estimate held. */
    ESTIMATE_HELD,
    /** The estimate was far off, and this turn analyzed the table. */
    ANALYZED,
    /** The estimate was far off, and another coordinator held the lock to analyze it. */
    ANALYZING_ELSEWHERE
  }

  /**
   * The server's count of the table's changes since its last analyze when this duty last found the
   * estimate held: it counts the pending jobs again only once as much has changed again. Guarded by
   * this object's lock ({@link #runOnce}).
   */
  private long changesWhenHeld;

  /**
   * Analyzes the jobs table if enough of it changed since its last analyze (and since the pending
   * jobs were last counted) and the planner's estimate of the pending jobs is far from their count.
   */
  synchronized Turn runOnce() {
    // null: the estimate is far off.
    @Nullable
    Turn checked =
        db.autoCommitted(
            "checking the planner statistics",
            session -> {
              PreparedStatement read = session.prepare(CHANGES);
              long changes;
              double rows;
              try (ResultSet row = read.executeQuery()) {
                if (!row.next()) {
                  return Turn.FEW_CHANGES;
                }
                changes = row.getLong(1);
                rows = row.getDouble(2);
              }
              if (changes < changesWhenHeld) {
                changesWhenHeld = 0; // analyzed since, by this duty or another
              }
              if (changes - changesWhenHeld < MIN_CHANGES + CHANGED_FRACTION * rows) {
                return Turn.FEW_CHANGES;
              }
              if (!pendingMiscounted(session)) {
                changesWhenHeld = changes;
                return Turn.ESTIMATE_HELD;
              }
              return null;
            });
    if (checked != null) {
      return checked;
    }
    return db.inTransaction(
        "analyzing the jobs table",
        session -> {
          try (ResultSet locked = session.prepare(LOCK).executeQuery()) {
            if (!locked.next() || !locked.getBoolean(1)) {
              return Turn.ANALYZING_ELSEWHERE;
            }
          }
          session.prepare(ANALYZE).execute();
          return Turn.ANALYZED;
        });
  }

  private static boolean pendingMiscounted(JdbcSession session) throws SQLException {
    long planned = plannedPending(session);
    // Counting past this proves the estimate low; stopping short of it makes the count exact.
    long limit = Math.min(MAX_COUNTED, Math.max(MIN_PENDING, MISCOUNT * planned + 1));
    long counted;
    PreparedStatement count = session.prepare(PENDING);
    count.setLong(1, limit);
    try (ResultSet row = count.executeQuery()) {
      row.next();
      counted = row.getLong(1);
    }
    boolean low = counted >= MIN_PENDING && counted > MISCOUNT * planned;
    boolean high = counted < limit && planned >= MIN_PENDING && planned > MISCOUNT * counted;
    return low || high;
  }

  /** The planner's estimate of the pending jobs: the row count on the first line of its plan. */
  private static long plannedPending(JdbcSession session) throws SQLException {
    try (ResultSet plan = session.prepare(PLANNED_PENDING).executeQuery()) {
      String line = plan.next() ? plan.getString(1) : "";
      Matcher rows = PLANNED_ROWS.matcher(line);
      if (!rows.find()) {
        throw new SQLException("no row estimate in the plan: " + line);
      }
      return Long.parseLong(rows.group(1));
    }
  }

  /**
   * {@link #runOnce} for the store's timer: the next turn tries again after a failure, which is
   * logged once (a database that is down fails every turn) until a turn succeeds.
   */
  void runScheduled() {
    try {
      if (runOnce() == Turn.ANALYZED) {
        log.debug("analyzed the jobs table");
      }
      outages.worked();
    } catch (RuntimeException e) {
      outages.failed(e);
    }
  }
}
