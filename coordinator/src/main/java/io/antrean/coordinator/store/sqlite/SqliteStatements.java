package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.jdbc.LimitedLeases;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/** The shared limits code's view of the writer's connection: cached statements, micros. */
final class SqliteStatements implements LimitedLeases.Statements {
  private final CachedConnection connection;

  SqliteStatements(CachedConnection connection) {
    this.connection = connection;
  }

  @Override
  public PreparedStatement prepare(String sql) throws SQLException {
    return connection.prepare(sql);
  }

  @Override
  public void setInstant(PreparedStatement statement, int index, Instant value)
      throws SQLException {
    statement.setLong(index, Micros.of(value));
  }

  @Override
  public String candidateLocking() {
    return ""; // the one writer needs no row locks
  }
}
