package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL run straight on a store's database file, on a connection of its own: changes while the store
 * is closed, reads at any time (WAL lets them run beside the store's writer).
 */
final class DatabaseFile {
  private DatabaseFile() {}

  /** The last column of each row {@code sql} returns, as text. */
  static List<String> lines(Path dataDir, String sql) throws SQLException {
    try (Connection connection = connect(dataDir);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      List<String> lines = new ArrayList<>();
      while (rows.next()) {
        lines.add(rows.getString(rows.getMetaData().getColumnCount()));
      }
      return lines;
    }
  }

  /** The same lines as {@link #lines}, joined into one text by newlines. */
  static String text(Path dataDir, String sql) throws SQLException {
    return String.join("\n", lines(dataDir, sql));
  }

  /**
   * Checks that the counts per queue and state the triggers keep (migration V12) are the jobs there
   * are, whatever was done to them.
   */
  static void assertQueueCountsAreTheJobs(Path dataDir) throws SQLException {
    assertThat(text(dataDir, QueueCountRowsTest.KEPT_COUNTS))
        .isEqualTo(text(dataDir, QueueCountRowsTest.COUNTED));
  }

  /** Runs one statement that returns no rows. */
  static void update(Path dataDir, String sql) throws SQLException {
    try (Connection connection = connect(dataDir);
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(sql);
    }
  }

  /** Work on one statement of one connection, for changes that span statements. */
  interface StatementWork {
    void run(Statement statement) throws SQLException;
  }

  /** Runs {@code work} on one connection to the file. */
  static void onOneConnection(Path dataDir, StatementWork work) throws SQLException {
    try (Connection connection = connect(dataDir);
        Statement statement = connection.createStatement()) {
      work.run(statement);
    }
  }

  private static Connection connect(Path dataDir) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:sqlite:" + dataDir.resolve(SqliteOptions.DATABASE_FILE));
  }
}
