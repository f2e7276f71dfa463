package io.antrean.coordinator.store.jdbc;

import java.sql.SQLException;

/**
 * A unit of work on one {@link JdbcSession}. It may throw a domain exception, which rolls it back
 * and reaches the caller.
 */
@FunctionalInterface
public interface SessionWork<T> {
  T run(JdbcSession session) throws SQLException;
}
