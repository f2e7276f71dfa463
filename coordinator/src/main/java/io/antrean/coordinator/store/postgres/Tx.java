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
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One unit of work on one pooled connection: the statements it prepared (closed when it ends) and
 * the queues whose jobs it made ready, which are announced with {@code pg_notify} inside the same
 * transaction, so other coordinators hear of them exactly when the change commits. Not thread-safe:
 * it belongs to the thread running the work.
 */
final class Tx implements JdbcSession {
  /** The channel other coordinators LISTEN on; the payload is a queue name. */
  static final String JOBS_READY_CHANNEL = "antrean_jobs_ready";

  private static final String NOTIFY =
      "SELECT pg_notify('" + JOBS_READY_CHANNEL + "', queue) FROM unnest(?::text[]) AS queue";

  private final Connection connection;
  private final List<Statement> statements = new ArrayList<>();
  private final Set<String> readyQueues = new TreeSet<>();

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

  /** Issues the notifications collected so far, as the last statement before the commit. */
  void sendNotifications() throws SQLException {
    if (readyQueues.isEmpty()) {
      return;
    }
    PreparedStatement notify = prepare(NOTIFY);
    notify.setArray(1, connection.createArrayOf("text", readyQueues.toArray()));
    notify.execute();
    readyQueues.clear();
  }

  /** Forgets what a rolled-back attempt collected, before the work runs again. */
  void reset() {
    readyQueues.clear();
    closeStatements();
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
