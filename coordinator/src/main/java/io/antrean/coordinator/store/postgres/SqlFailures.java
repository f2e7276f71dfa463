package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.store.StoreUnavailableException;
import java.sql.SQLException;
import java.util.Set;

/**
 * Turns a {@link SQLException} into what the SPI promises: {@link StoreUnavailableException} for
 * trouble the caller may retry (a lost connection, a server shutting down, no free connection in
 * time, a closed store), and {@link IllegalStateException} for what only a bug in this store or a
 * wrong schema can cause (bad SQL, a violated constraint, a data type mismatch).
 */
final class SqlFailures {
  /** SQLSTATE classes of a bug, https://www.postgresql.org/docs/current/errcodes-appendix.html */
  private static final Set<String> BUG_CLASSES = Set.of("0A", "22", "23", "42");

  private static final String SERIALIZATION_FAILURE = "40001";
  private static final String DEADLOCK_DETECTED = "40P01";

  private SqlFailures() {}

  static RuntimeException translate(String what, SQLException e) {
    String state = e.getSQLState();
    if (state != null && state.length() == 5 && BUG_CLASSES.contains(state.substring(0, 2))) {
      return new IllegalStateException(
          what + " failed on a store bug (SQLSTATE " + state + "): " + e.getMessage(), e);
    }
    return new StoreUnavailableException(what + " failed: " + e.getMessage(), e);
  }

  /**
   * True when the server aborted the transaction only because of another one running at the same
   * time; running it again from the start is safe and will most likely succeed.
   */
  static boolean isRetryable(SQLException e) {
    return SERIALIZATION_FAILURE.equals(e.getSQLState())
        || DEADLOCK_DETECTED.equals(e.getSQLState());
  }
}
