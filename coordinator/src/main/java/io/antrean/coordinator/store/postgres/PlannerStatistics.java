package io.antrean.coordinator.store.postgres;

import java.sql.ResultSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps PostgreSQL's planner statistics of the jobs table close to the table while it changes fast,
 * so a lease keeps walking {@code jobs_pending} in order and stops after the jobs it takes.
 *
 * <p>The planner estimates how many jobs are pending from the statistics of the last {@code
 * ANALYZE}; the lease's plan ({@code lease_jobs}, migrations V13 and V14, keeps one per connection)
 * is made again after each. Until an analyze has seen pending jobs (a fresh installation, a burst
 * after a quiet spell) it believes about one row is pending; then reading the queue's jobs by
 * {@code jobs_queue_state} and sorting them looks as cheap as the ordered walk, and a lease that
 * takes 25 jobs reads and sorts every pending job of the queue (5 ms each over 15,000 in the
 * measurement in docs/benchmarks.md, "PostgreSQL: statistics that keep up"). Autovacuum analyzes
 * the table on its own schedule, which looks at most once a minute.
 *
 * <p>{@link #runOnce} reads the server's count of rows changed since the last analyze and, once it
 * passes {@link #MIN_CHANGES} plus {@link #CHANGED_FRACTION} of the table, runs {@code ANALYZE
 * jobs} under a transaction-scoped advisory lock, so coordinators sharing the schema do not analyze
 * it together (the one that finds the lock held skips its turn). The table's statistics targets are
 * low (migration V11), so an analyze samples 3,000 rows. The server counts changes a second or so
 * after they commit. {@link #runOnce} is thread-safe; the store's timer calls {@link #runScheduled}
 * every {@link #INTERVAL_MILLIS}.
 */
final class PlannerStatistics {
  private static final Logger log = LoggerFactory.getLogger(PlannerStatistics.class);

  static final long INTERVAL_MILLIS = 1_000;
  static final long MIN_CHANGES = 500;
  static final double CHANGED_FRACTION = 0.1;

  private static final String DUE =
      "SELECT s.n_mod_since_analyze >= ? + ? * greatest(c.reltuples, 0)"
          + " FROM pg_stat_user_tables AS s JOIN pg_class AS c ON c.oid = s.relid"
          + " WHERE s.relid = 'jobs'::regclass";
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

  /**
   * Analyzes the jobs table if enough of it changed since its last analyze.
   *
   * @return whether this call analyzed it
   */
  boolean runOnce() {
    boolean due =
        db.autoCommitted(
            "checking the planner statistics",
            session -> {
              var check = session.prepare(DUE);
              check.setLong(1, MIN_CHANGES);
              check.setDouble(2, CHANGED_FRACTION);
              try (ResultSet row = check.executeQuery()) {
                return row.next() && row.getBoolean(1);
              }
            });
    if (!due) {
      return false;
    }
    return db.inTransaction(
        "analyzing the jobs table",
        session -> {
          try (ResultSet locked = session.prepare(LOCK).executeQuery()) {
            if (!locked.next() || !locked.getBoolean(1)) {
              return false;
            }
          }
          session.prepare(ANALYZE).execute();
          return true;
        });
  }

  /**
   * {@link #runOnce} for the store's timer: the next turn tries again after a failure, which is
   * logged once (a database that is down fails every turn) until a turn succeeds.
   */
  void runScheduled() {
    try {
      if (runOnce()) {
        log.debug("analyzed the jobs table");
      }
      outages.worked();
    } catch (RuntimeException e) {
      outages.failed(e);
    }
  }
}
