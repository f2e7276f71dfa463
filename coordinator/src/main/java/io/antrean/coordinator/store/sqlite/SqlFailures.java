package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.StoreUnavailableException;
import java.sql.SQLException;

/**
 * Turns a {@link SQLException} into what the SPI promises: {@link StoreUnavailableException} for
 * trouble the caller may retry (I/O, a full disk, a lock held too long, a closed store), and {@link
 * IllegalStateException} for what only a bug in this store can cause (bad SQL, a violated
 * constraint, a type mismatch).
 */
final class SqlFailures {
  // Primary SQLite result codes, https://sqlite.org/rescode.html
  private static final int SQLITE_ERROR = 1;
  private static final int SQLITE_CONSTRAINT = 19;
  private static final int SQLITE_MISMATCH = 20;
  private static final int SQLITE_MISUSE = 21;
  private static final int SQLITE_RANGE = 25;

  private SqlFailures() {}

  static RuntimeException translate(String what, SQLException e) {
    int primaryCode = e.getErrorCode() & 0xFF;
    return switch (primaryCode) {
      case SQLITE_ERROR, SQLITE_CONSTRAINT, SQLITE_MISMATCH, SQLITE_MISUSE, SQLITE_RANGE ->
          new IllegalStateException(what + " failed on a store bug: " + e.getMessage(), e);
      default -> new StoreUnavailableException(what + " failed: " + e.getMessage(), e);
    };
  }
}
