package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteOpenMode;
import org.sqlite.core.NativeDB;

/** The settings every connection of the database file is opened with. */
class SqliteFileTest {
  @TempDir Path dataDir;

  @Test
  void writerIsWalWithNormalSyncAndALargePageCacheAndReadersOnlyRead() throws SQLException {
    try (SqliteFile file = SqliteFile.lock(dataDir, SqliteOptions.defaults());
        CachedConnection writer = file.openWriter();
        CachedConnection reader = file.openReader()) {
      assertThat(pragma(writer, "journal_mode")).isEqualTo("wal");
      // NORMAL: the commit does not fsync the WAL; WalSync does, before anything is answered.
      assertThat(pragma(writer, "synchronous")).isEqualTo("1");
      assertThat(pragma(writer, "cache_size"))
          .isEqualTo(String.valueOf(-SqliteFile.WRITER_CACHE_KIB));
      assertThat(pragma(reader, "cache_size"))
          .isEqualTo(String.valueOf(-SqliteFile.READER_CACHE_KIB));
      assertThat(pragma(reader, "query_only")).isEqualTo("1");
    }
  }

  @Test
  void writerKeepsSavepointSubJournalsInMemory() throws SQLException {
    try (SqliteFile file = SqliteFile.lock(dataDir, SqliteOptions.defaults());
        CachedConnection writer = file.openWriter()) {
      assertThat(pragma(writer, "temp_store")).isEqualTo("2"); // MEMORY
    }
  }

  @Test
  void noConnectionMatchesEachStatementForGeneratedKeys() throws SQLException {
    try (SqliteFile file = SqliteFile.lock(dataDir, SqliteOptions.defaults());
        CachedConnection writer = file.openWriter();
        CachedConnection reader = file.openReader()) {
      for (CachedConnection connection : new CachedConnection[] {writer, reader}) {
        assertThat(
                connection
                    .connection()
                    .unwrap(SQLiteConnection.class)
                    .getConnectionConfig()
                    .isGetGeneratedKeys())
            .isFalse();
      }
    }
  }

  @Test
  void connectionsLeaveTheirLockingToTheDriver() throws SQLException {
    try (SqliteFile file = SqliteFile.lock(dataDir, SqliteOptions.defaults());
        CachedConnection writer = file.openWriter();
        CachedConnection reader = file.openReader()) {
      for (CachedConnection connection : new CachedConnection[] {writer, reader}) {
        int flags =
            connection
                .connection()
                .unwrap(SQLiteConnection.class)
                .getDatabase()
                .getConfig()
                .getOpenModeFlags();
        assertThat(flags & SQLiteOpenMode.NOMUTEX.flag).isEqualTo(SQLiteOpenMode.NOMUTEX.flag);
      }
    }
  }

  @Test
  void theDriverSerializesEveryCallOnAConnectionItself() throws NoSuchMethodException {
    // What makes SQLite's own mutex needless (SqliteFile#baseConfig): a driver whose native calls
    // on a connection did not hold that connection's monitor would need it back.
    for (String method : List.of("step", "reset", "clear_bindings", "finalize")) {
      assertThat(synchronizedIn(method, long.class)).as(method).isTrue();
    }
    for (String method :
        List.of(
            "column_long",
            "column_int",
            "column_double",
            "column_blob",
            "column_type",
            "column_text_utf8")) {
      assertThat(synchronizedIn(method, long.class, int.class)).as(method).isTrue();
    }
  }

  private static boolean synchronizedIn(String method, Class<?>... parameters)
      throws NoSuchMethodException {
    return Modifier.isSynchronized(
        NativeDB.class.getDeclaredMethod(method, parameters).getModifiers());
  }

  private static String pragma(CachedConnection connection, String name) throws SQLException {
    try (Statement statement = connection.connection().createStatement();
        ResultSet row = statement.executeQuery("PRAGMA " + name)) {
      assertThat(row.next()).isTrue();
      return row.getString(1);
    }
  }
}
