package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

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

  /**
   * Copies a data directory's files as they are on disk (its lock file left out), the store that
   * writes them still open: the image a crash leaves.
   */
  static void copyDataDir(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else if (!f.getFileName().toString().endsWith(".lock")) {
          Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
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
