package io.antrean.coordinator.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.SessionWork;
import io.antrean.coordinator.store.jdbc.TokenWakeups;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs units of work on a HikariCP pool: each one borrows a connection, runs, commits or rolls
 * back, and returns the connection. A transaction the server aborted for a deadlock or a
 * serialization failure runs again from the start, a few times. Once a unit has committed, the
 * queues it made ready go to the {@link JobsReadyAnnouncer}: to the other coordinators in a {@code
 * NOTIFY} when the {@link ListenerCensus} says some may listen, else straight to this process's own
 * subscribers. Thread-safe.
 */
final class PooledTransactions implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PooledTransactions.class);
  private static final int MAX_TRIES = 4;

  /**
   * Raises {@code synchronous_commit} to {@code on} where a server or role turned it off, so a
   * commit that returned is on disk; stronger settings (remote_write, remote_apply) stay.
   */
  private static final String DURABLE_COMMITS =
      "SELECT set_config('synchronous_commit', 'on', false)"
          + " WHERE current_setting('synchronous_commit') = 'off'";

  /**
   * The channel every coordinator LISTENs on ({@link JobsReadyListener}); the payload is a queue.
   */
  static final String JOBS_READY_CHANNEL = "antrean_jobs_ready";

  /**
   * One round of notifications, one statement committed on its own without waiting for the disk
   * (the setting is local to its transaction): a lost notification is covered by the backup sweep.
   */
  private static final String NOTIFY =
      "SELECT count(pg_notify('"
          + JOBS_READY_CHANNEL
          + "', queue)) FROM set_config('synchronous_commit', 'off', true) AS setting,"
          + " unnest(?::text[]) AS queue";

  private final HikariDataSource pool;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final TokenWakeups tokenWakeups = new TokenWakeups();
  private final ListenerCensus census;
  private final Consumer<List<String>> tellHere;
  private final JobsReadyAnnouncer announcer;
  private final AtomicLong units = new AtomicLong();

  private PooledTransactions(
      HikariDataSource pool, ListenerCensus census, Consumer<List<String>> tellHere) {
    this.pool = pool;
    this.census = census;
    this.tellHere = tellHere;
    this.announcer = new JobsReadyAnnouncer(this::announce);
  }

  /** Where this process's leases report rate-limit wake-ups. */
  TokenWakeups tokenWakeups() {
    return tokenWakeups;
  }

  /**
   * @param census whether other coordinators listen for the queues this one makes ready
   * @param tellHere hands those queues to this process's own subscribers when none does
   */
  static PooledTransactions open(
      PostgresOptions options, ListenerCensus census, Consumer<List<String>> tellHere) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("antrean-postgres");
    config.setJdbcUrl(options.jdbcUrl());
    config.setUsername(options.user());
    config.setPassword(options.password());
    config.setMaximumPoolSize(options.poolSize());
    config.setSchema(options.schema());
    config.setConnectionTimeout(options.connectionTimeout().toMillis());
    config.setConnectionInitSql(DURABLE_COMMITS);
    config.setAutoCommit(true);
    // Fail at open, not at the first call, when the database cannot be reached.
    config.setInitializationFailTimeout(options.connectionTimeout().toMillis());
    try {
      return new PooledTransactions(new HikariDataSource(config), census, tellHere);
    } catch (RuntimeException e) {
      throw new StoreUnavailableException(
          "cannot connect to PostgreSQL at " + options.redactedUrl() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs the work in one transaction (READ COMMITTED), commits it, then announces the queues it
   * made ready.
   */
  <T> T inTransaction(String what, SessionWork<T> work) {
    for (int attempt = 1; ; attempt++) {
      try (Connection connection = borrow(what)) {
        Tx tx = new Tx(connection, tokenWakeups);
        try {
          connection.setAutoCommit(false);
          T result = work.run(tx);
          connection.commit();
          units.incrementAndGet();
          announcer.announce(tx.readyQueues());
          return result;
        } catch (SQLException e) {
          rollback(connection, e);
          if (attempt < MAX_TRIES && PostgresDialect.isRetryable(e)) {
            log.debug("{}: transaction aborted ({}), running it again", what, e.getSQLState());
            continue;
          }
          throw PostgresDialect.INSTANCE.translate(what, e);
        } catch (RuntimeException | Error e) {
          rollback(connection, e);
          throw e;
        } finally {
          tx.closeStatements();
        }
      } catch (SQLException e) {
        throw PostgresDialect.INSTANCE.translate(what, e);
      }
    }
  }

  /**
   * Runs the work as one read-only REPEATABLE READ transaction: every statement sees the same
   * snapshot (a job and its history agree).
   */
  <T> T inSnapshot(String what, SessionWork<T> work) {
    return inTransaction(
        what,
        tx -> {
          tx.prepare("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute();
          return work.run(tx);
        });
  }

  /**
   * Runs the work with every statement committing on its own: for reads and for writes that are one
   * statement (a data-modifying WITH included), which saves the round trip of a COMMIT. The queues
   * it made ready are announced when it returns.
   */
  <T> T autoCommitted(String what, SessionWork<T> work) {
    try (Connection connection = borrow(what)) {
      Tx tx = new Tx(connection, tokenWakeups);
      try {
        T result = work.run(tx);
        units.incrementAndGet();
        announcer.announce(tx.readyQueues());
        return result;
      } finally {
        tx.closeStatements();
      }
    } catch (SQLException e) {
      throw PostgresDialect.INSTANCE.translate(what, e);
    }
  }

  /**
   * The announcer's sender: one round of notifications on a pooled connection, or, with no other
   * coordinator listening, the round handed to this process's subscribers (which would otherwise
   * have heard it back from the server).
   */
  private void announce(List<String> queues) {
    if (!census.othersMayListen()) {
      tellHere.accept(queues);
      return;
    }
    autoCommitted(
        "announcing ready jobs",
        tx -> {
          PreparedStatement notify = tx.prepare(NOTIFY);
          notify.setArray(1, tx.connection().createArrayOf("text", queues.toArray()));
          notify.executeQuery().close();
          return null;
        });
  }

  /**
   * Units of work that ran to the end: transactions committed, and autocommitted runs (reads
   * included) that returned. For tests that count a change's transactions.
   */
  long units() {
    return units.get();
  }

  private Connection borrow(String what) throws SQLException {
    if (closed.get()) {
      throw new StoreUnavailableException(what + ": the PostgreSQL job store is closed", null);
    }
    return pool.getConnection();
  }

  private static void rollback(Connection connection, Throwable cause) {
    try {
      connection.rollback();
    } catch (SQLException rollback) {
      cause.addSuppressed(rollback);
    }
  }

  /**
   * Sends the announcements still pending, waits for the connections in use to come back (HikariCP
   * waits a few seconds), then closes.
   */
  @Override
  public void close() {
    announcer.close();
    if (closed.compareAndSet(false, true)) {
      pool.close();
    }
  }
}
