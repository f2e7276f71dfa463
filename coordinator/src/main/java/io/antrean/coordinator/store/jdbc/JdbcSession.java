package io.antrean.coordinator.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * One unit of work on one connection, as the shared JDBC code sees it: SQLite's writer or a read
 * connection, or one pooled PostgreSQL transaction. Not thread-safe: it belongs to the thread
 * running the work.
 */
public interface JdbcSession {
  /** The database this session talks to. */
  JdbcDialect dialect();

  /**
   * A statement for this SQL, parameters cleared. The session owns it (it may cache it or close it
   * when the work ends): close its result sets, never the statement.
   */
  PreparedStatement prepare(String sql) throws SQLException;

  /** The raw connection, for what {@link #prepare} does not cover (arrays, generated keys). */
  Connection connection();

  /**
   * Jobs of the queue may have become ready: where other coordinators share the database, tell them
   * once the work commits. Does nothing where this process is the only one.
   */
  default void jobsReady(String queue) {}

  /**
   * Jobs of the queue became PENDING as a side effect of another job's change (its last dependency
   * SUCCEEDED), which the coordinator that made the change cannot see in its answer: tell every
   * waiting Lease call, this process's too, once the work commits. By default {@link #jobsReady},
   * for a database whose notices reach every process, this one included.
   */
  default void dependentsReady(String queue) {
    jobsReady(queue);
  }

  /**
   * A rate limit held back jobs of the queue that may be leased at {@code at}, when its bucket has
   * a token again: wake this process's waiting Lease calls on the queue then ({@link
   * TokenWakeups}). Does nothing in a session that nobody listens to.
   */
  default void leasableAt(String queue, Instant at) {}
}
