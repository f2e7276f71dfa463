package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.JobStore;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite store with young jobs on, opened by each test on a temporary directory and closed after
 * it, with the jobs' rows counted straight from its database file.
 */
abstract class YoungStoreFixture {
  @TempDir Path dataDir;

  /** The store under test, opened by the test; closed after it if set. */
  JobStore store;

  /** A store with young jobs on that folds none in a quiet moment within a test. */
  static JobStore open(Path dir) {
    return open(dir, Duration.ofDays(1));
  }

  static JobStore open(Path dir, Duration quietFoldAfter) {
    return SqliteJobStore.open(
        dir, SqliteOptions.defaults().withYoungJobs(true).withQuietFoldAfter(quietFoldAfter));
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  /** How many jobs have a row in the database file. */
  static String rows(Path dir) throws SQLException {
    return DatabaseFile.text(dir, "SELECT count(*) FROM jobs");
  }
}
