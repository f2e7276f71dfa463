package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.StoreUnavailableException;

/**
 * The contract and every SQLite test again, with young jobs on: a plain Enqueue's jobs stay in
 * memory and their log until an operation that needs the database folds them in.
 */
class SqliteYoungJobsStoreTest extends SqliteJobStoreTest {
  @Override
  protected JobStore openStore() {
    return SqliteJobStore.open(dataDir, SqliteOptions.defaults().withYoungJobs(true));
  }

  /** The young jobs folded in first, where the tests read the file as a fold leaves it. */
  @Override
  protected void settleForFileReads() {
    try {
      ((SqliteJobStore) store).foldYoungJobs();
    } catch (StoreUnavailableException closed) {
      // The store is closed: the file is as it left it, the log holding what is young.
    }
  }
}
