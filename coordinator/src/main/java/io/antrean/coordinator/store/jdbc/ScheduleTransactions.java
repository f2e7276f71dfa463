package io.antrean.coordinator.store.jdbc;

import java.sql.SQLException;

/**
 * How a JDBC store runs {@link JdbcScheduleStore}'s work: each unit in one transaction, committed
 * durably before the call returns, rolled back entirely when it throws. Thread-safe.
 */
public interface ScheduleTransactions {

  /** One unit of work; a domain exception it throws rolls it back and reaches the caller. */
  @FunctionalInterface
  interface Work<T> {
    T run(ScheduleSession session) throws SQLException;
  }

  /** Runs work that only reads. */
  <T> T read(String what, Work<T> work);

  /** Runs work that changes the database, in one atomic, durable change. */
  <T> T write(String what, Work<T> work);
}
