package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.store.jdbc.LimitedLeases;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/** The shared limits code's view of one transaction: timestamptz, row locks that skip. */
final class PostgresStatements implements LimitedLeases.Statements {
  private final Tx tx;

  PostgresStatements(Tx tx) {
    this.tx = tx;
  }

  @Override
  public PreparedStatement prepare(String sql) throws SQLException {
    return tx.prepare(sql);
  }

  @Override
  public void setInstant(PreparedStatement statement, int index, Instant value)
      throws SQLException {
    Timestamps.set(statement, index, value);
  }

  @Override
  public String candidateLocking() {
    return " FOR UPDATE SKIP LOCKED";
  }
}
