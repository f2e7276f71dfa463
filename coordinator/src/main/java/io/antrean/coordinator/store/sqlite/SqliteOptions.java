package io.antrean.coordinator.store.sqlite;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of a {@link SqliteJobStore}. Start from {@link #defaults()} and change what you need.
 *
 * @param maxGroupOperations the most write operations the writer thread runs in one transaction
 *     (one fsync); at least 1
 * @param readConnections connections for reads (get, list, stats, running leases); at least 1
 * @param busyTimeout how long a connection waits for a lock held elsewhere (a checkpoint, a backup
 *     tool) before it fails
 * @param maxQueuedWrites write operations waiting for the writer thread at most; a write past it
 *     fails at once with {@link io.antrean.coordinator.store.OverloadedException} (limit {@code
 *     write_queue}); at least 1
 * @param youngJobs whether a plain Enqueue's jobs stay young, in memory and in their own log in the
 *     data directory, until a fold writes them into the database once, in the state they reached
 *     (before any operation that needs their rows, at a bound, and in quiet moments); on by default
 *     (store/sqlite/young, docs/architecture.md "Young jobs")
 * @param quietFoldAfter with young jobs on, how long jobs stay young at least before a moment
 *     without waiting writes folds them ({@link QuietFolds}); positive
 */
public record SqliteOptions(
    int maxGroupOperations,
    int readConnections,
    Duration busyTimeout,
    int maxQueuedWrites,
    boolean youngJobs,
    Duration quietFoldAfter) {

  /** The default of {@link #quietFoldAfter}. */
  public static final Duration QUIET_FOLD_AFTER = Duration.ofSeconds(5);

  public SqliteOptions(
      int maxGroupOperations, int readConnections, Duration busyTimeout, int maxQueuedWrites) {
    this(maxGroupOperations, readConnections, busyTimeout, maxQueuedWrites, true, QUIET_FOLD_AFTER);
  }

  /** The database file's name inside the data directory. */
  public static final String DATABASE_FILE = "antrean.db";

  public SqliteOptions {
    Objects.requireNonNull(busyTimeout, "busyTimeout");
    Objects.requireNonNull(quietFoldAfter, "quietFoldAfter");
    if (quietFoldAfter.isNegative() || quietFoldAfter.isZero()) {
      throw new IllegalArgumentException("quietFoldAfter must be positive, got " + quietFoldAfter);
    }
    if (maxGroupOperations < 1) {
      throw new IllegalArgumentException(
          "maxGroupOperations must be at least 1, got " + maxGroupOperations);
    }
    if (readConnections < 1) {
      throw new IllegalArgumentException(
          "readConnections must be at least 1, got " + readConnections);
    }
    if (maxQueuedWrites < 1) {
      throw new IllegalArgumentException(
          "maxQueuedWrites must be at least 1, got " + maxQueuedWrites);
    }
    if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("busyTimeout out of range: " + busyTimeout);
    }
  }

  /**
   * 512 operations per group commit, 4 read connections, a 5 s busy timeout, 10,000 queued writes,
   * young jobs on, folded in a quiet moment once young for {@link #QUIET_FOLD_AFTER}.
   */
  public static SqliteOptions defaults() {
    return new SqliteOptions(512, 4, Duration.ofSeconds(5), 10_000);
  }

  public SqliteOptions withMaxGroupOperations(int value) {
    return new SqliteOptions(
        value, readConnections, busyTimeout, maxQueuedWrites, youngJobs, quietFoldAfter);
  }

  public SqliteOptions withReadConnections(int value) {
    return new SqliteOptions(
        maxGroupOperations, value, busyTimeout, maxQueuedWrites, youngJobs, quietFoldAfter);
  }

  public SqliteOptions withBusyTimeout(Duration value) {
    return new SqliteOptions(
        maxGroupOperations, readConnections, value, maxQueuedWrites, youngJobs, quietFoldAfter);
  }

  public SqliteOptions withMaxQueuedWrites(int value) {
    return new SqliteOptions(
        maxGroupOperations, readConnections, busyTimeout, value, youngJobs, quietFoldAfter);
  }

  public SqliteOptions withYoungJobs(boolean value) {
    return new SqliteOptions(
        maxGroupOperations, readConnections, busyTimeout, maxQueuedWrites, value, quietFoldAfter);
  }

  public SqliteOptions withQuietFoldAfter(Duration value) {
    return new SqliteOptions(
        maxGroupOperations, readConnections, busyTimeout, maxQueuedWrites, youngJobs, value);
  }
}
