package io.antrean.coordinator.store;

/** How the {@code ...Async} writes of a store reach it ({@link JobStore#asyncWrites()}). */
public enum AsyncWrites {
  /** Run on the caller's thread, which waits for the I/O: the default. */
  ON_CALLERS_THREAD,
  /**
   * Handed to one writer thread (SQLite's), so the call never blocks; the writer runs them one at a
   * time in the order they were submitted, each seeing the changes of those before it, so a write
   * may be submitted behind another without waiting for that one to be durable.
   */
  ONE_WRITER_IN_ORDER;

  /** Whether the call returns without waiting on I/O, so it may be made on a network thread. */
  public boolean neverBlock() {
    return this == ONE_WRITER_IN_ORDER;
  }
}
