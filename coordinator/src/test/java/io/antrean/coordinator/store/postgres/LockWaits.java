package io.antrean.coordinator.store.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** For tests that race transactions on PostgreSQL: waiting until calls wait for a row lock. */
final class LockWaits {
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private LockWaits() {}

  /**
   * Polls, on {@code watching}, until at least {@code sessions} sessions of its database wait for a
   * lock; fails if one of {@code calls} ends first (it did not wait) or after 30 seconds.
   */
  static void await(Connection watching, int sessions, List<? extends CompletableFuture<?>> calls)
      throws SQLException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    String waiting =
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            + " AND cardinality(pg_blocking_pids(pid)) > 0";
    while (single(watching, waiting) < sessions) {
      for (CompletableFuture<?> call : calls) {
        if (call.isDone()) {
          throw new AssertionError("a call ended without waiting for a lock: " + outcome(call));
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(sessions + " sessions did not wait for a lock within " + PATIENCE);
      }
      Thread.yield();
    }
  }

  /** The one number {@code sql} selects. */
  static long single(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getLong(1);
    }
  }

  private static String outcome(CompletableFuture<?> call) {
    try {
      return String.valueOf(call.join());
    } catch (CompletionException e) {
      return String.valueOf(e.getCause());
    }
  }
}
