package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.JobStoreFixture;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite store opened fresh on a temporary directory before each test and closed after it, with
 * SQL run straight on its database file, for the SQLite tests that stand outside the store
 * contract. It keeps no young job: these tests read the file as the operations write their rows.
 */
abstract class SqliteStoreFixture implements JobStoreFixture {
  /** The store's options here: young jobs off, every job a row from its Enqueue on. */
  static final SqliteOptions ROWS = SqliteOptions.defaults().withYoungJobs(false);

  @TempDir Path dataDir;

  /** The store under test; a test may replace it (after reopening, say) or leave it null. */
  JobStore store;

  @Override
  public JobStore store() {
    return store;
  }

  @BeforeEach
  void openStore() {
    store = SqliteJobStore.open(dataDir, ROWS);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  /** Runs SQL on the database file while the store is closed (or only reads while it is open). */
  String query(String sql) throws SQLException {
    return DatabaseFile.text(dataDir, sql);
  }

  void update(String sql) throws SQLException {
    DatabaseFile.update(dataDir, sql);
  }
}
