package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.SessionWork;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer thread started fresh for each test on a database file with a table of its own, with ways
 * to keep it busy and to read what it committed, for the tests of {@link SqliteWriter}.
 */
abstract class SqliteWriterFixture {
  static final int MAX_QUEUED = 64;

  @TempDir Path dataDir;

  SqliteFile file;
  SqliteWriter writer;
  final ExecutorService callers = Executors.newCachedThreadPool();
  final CountDownLatch blockerStarted = new CountDownLatch(1);
  final CountDownLatch unblock = new CountDownLatch(1);

  @BeforeEach
  void startWriter() throws SQLException {
    file = SqliteFile.lock(dataDir, SqliteOptions.defaults());
    CachedConnection connection = file.openWriter();
    try (Statement statement = connection.connection().createStatement()) {
      statement.execute("CREATE TABLE items (value INTEGER NOT NULL)");
    }
    // Never a quiet moment: every write goes through the writer thread (until a test calls
    // startCallerRunningWriter).
    writer =
        SqliteWriter.start(connection, file.walSync(), 512, MAX_QUEUED, Duration.ofDays(1), null);
  }

  @AfterEach
  void stopWriter() throws InterruptedException {
    unblock.countDown();
    writer.close();
    file.close();
    callers.shutdownNow();
    assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  static Integer insert(JdbcSession connection, int value) throws SQLException {
    PreparedStatement insert = connection.prepare("INSERT INTO items (value) VALUES (?)");
    insert.setInt(1, value);
    insert.executeUpdate();
    return value;
  }

  List<Integer> storedUnchecked() {
    try {
      return stored();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  List<Integer> stored() throws SQLException {
    return read("SELECT value FROM items ORDER BY value");
  }

  List<Integer> storedInCommitOrder() throws SQLException {
    return read("SELECT value FROM items ORDER BY rowid");
  }

  private List<Integer> read(String query) throws SQLException {
    try (CachedConnection reader = file.openReader();
        ResultSet rows = reader.connection().createStatement().executeQuery(query)) {
      List<Integer> values = new ArrayList<>();
      while (rows.next()) {
        values.add(rows.getInt(1));
      }
      return values;
    }
  }

  /** Occupies the writer thread until {@link #unblock} opens, so later operations queue up. */
  CompletableFuture<Integer> blockWriter() throws InterruptedException {
    CompletableFuture<Integer> blocker =
        submit(
            "blocker",
            c -> {
              blockerStarted.countDown();
              awaitUnblock();
              return insert(c, 0);
            });
    assertThat(blockerStarted.await(10, TimeUnit.SECONDS)).isTrue();
    return blocker;
  }

  void awaitUnblock() {
    try {
      assertThat(unblock.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while blocking the writer", e);
    }
  }

  <T> CompletableFuture<T> submit(String name, SessionWork<T> operation) {
    return CompletableFuture.supplyAsync(() -> writer.execute(name, operation), callers);
  }

  void awaitQueued(int operations) {
    await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == operations);
  }

  /**
   * Replaces the writer with one (every write on the writer thread) whose commits are made durable
   * by {@code force} instead of an fsync of the WAL file.
   */
  void startWriterSyncingWith(WalSync.Force force) throws SQLException {
    writer.close();
    writer =
        SqliteWriter.start(
            file.openWriter(), new WalSync(force), 512, MAX_QUEUED, Duration.ofDays(1), null);
  }

  /** Replaces the writer with one that runs a write on its caller's thread whenever it is idle. */
  void startCallerRunningWriter() throws SQLException {
    writer.close();
    writer =
        SqliteWriter.start(file.openWriter(), file.walSync(), 512, MAX_QUEUED, Duration.ZERO, null);
  }
}
