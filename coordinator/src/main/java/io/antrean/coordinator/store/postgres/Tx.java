package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.store.jdbc.JdbcDialect;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.TokenWakeups;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One unit of work on one pooled connection: the statements it prepared (closed when it ends) and
 * the queues whose jobs it made ready, which are announced to the other coordinators once the work
 * has committed ({@link JobsReadyAnnouncer}). Not thread-safe: it belongs to the thread running the
 * work.
 */
final class Tx implements JdbcSession {
  private final Connection connection;
  private final List<Statement> statements = new ArrayList<>();
  private final Set<String> readyQueues = new LinkedHashSet<>();

  private final TokenWakeups tokenWakeups;

  Tx(Connection connection, TokenWakeups tokenWakeups) {
    this.connection = connection;
    this.tokenWakeups = tokenWakeups;
  }

  @Override
  public JdbcDialect dialect() {
    return PostgresDialect.INSTANCE;
  }

  /** A statement that is closed when the work ends. */
  @Override
  public PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    statements.add(statement);
    return statement;
  }

  @Override
  public Connection connection() {
    return connection;
  }

  /** Jobs of the queue may have become ready: tell the other coordinators once this commits. */
  @Override
  public void jobsReady(String queue) {
    readyQueues.add(queue);
  }

  /** Rate-limit wake-ups concern this process's own waiting calls only: told at once. */
  @Override
  public void leasableAt(String queue, Instant at) {
    tokenWakeups.leasableAt(queue, at);
  }

  /** The queues whose jobs this work may have made ready, in the order first named. */
  Set<String> readyQueues() {
    return readyQueues;
  }

  void closeStatements() {
    for (Statement statement : statements) {
      try {
        statement.close();
      } catch (SQLException e) {
        // A statement that cannot be closed goes with its connection; nothing to do here.
      }
    }
    statements.clear();
  }
}
