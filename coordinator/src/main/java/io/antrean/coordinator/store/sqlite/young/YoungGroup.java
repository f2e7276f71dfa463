package io.antrean.coordinator.store.sqlite.young;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The open group of {@link YoungJobs}: the changes made to memory since the group began, each with
 * its record for the log and how to undo it, in order, so that an operation's savepoint rollback
 * ({@link #rollbackTo}) or a group that does not commit ({@link #abandon}) undoes what it made, and
 * a group that commits hands over only the records made after its last fold. Not thread-safe.
 */
final class YoungGroup {
  // Null in changes and records marks a fold.
  private final List<YoungChange> changes = new ArrayList<>();
  private final List<byte[]> records = new ArrayList<>();
  private final List<Runnable> undo = new ArrayList<>();
  private boolean open;

  void begin() {
    if (open) {
      throw new IllegalStateException("a group is already open");
    }
    open = true;
  }

  boolean isOpen() {
    return open;
  }

  int mark() {
    requireOpen();
    return undo.size();
  }

  void rollbackTo(int mark) {
    requireOpen();
    while (undo.size() > mark) {
      undo.remove(undo.size() - 1).run();
      changes.remove(changes.size() - 1);
      records.remove(records.size() - 1);
    }
  }

  /**
   * Keeps a change made to memory, and how to undo it; undoes it at once if its record cannot be
   * made (too large for the log, a text the log cannot hold), so that its operation fails instead
   * of the log after the commit.
   */
  void record(YoungChange change, Runnable undoIt) {
    requireOpen();
    byte[] bytes;
    try {
      bytes = change.toRecord();
      if (bytes.length > YoungJobLog.MAX_RECORD_BYTES) {
        throw new IllegalArgumentException(
            "a young job's change of " + bytes.length + " bytes is over the log's record size");
      }
    } catch (RuntimeException e) {
      undoIt.run();
      throw e;
    }
    add(change, bytes, undoIt);
  }

  /** A fold, which writes no record (the log is cut at its position instead), and its undo. */
  void folded(Runnable undoIt) {
    requireOpen();
    add(null, null, undoIt);
  }

  /** Closes the group; returns the changes made after its last fold, in order. */
  List<YoungChange> commit() {
    List<YoungChange> made = List.copyOf(changes.subList(afterLastFold(), changes.size()));
    close();
    return made;
  }

  /** Closes the group; returns the records of the changes made after its last fold, in order. */
  List<byte[]> commitRecords() {
    List<byte[]> made = List.copyOf(records.subList(afterLastFold(), records.size()));
    close();
    return made;
  }

  /** Undoes every change of the open group, if any, and closes it. */
  void abandon() {
    if (!open) {
      return; // committed already, or never begun
    }
    rollbackTo(0);
    open = false;
  }

  void requireOpen() {
    if (!open) {
      throw new IllegalStateException("no group is open");
    }
  }

  private void add(@Nullable YoungChange change, @Nullable byte[] record, Runnable undoIt) {
    changes.add(change);
    records.add(record);
    undo.add(undoIt);
  }

  // A fold in the group wrote every change before it into the database: only those after the
  // last fold are for the log.
  private int afterLastFold() {
    requireOpen();
    return changes.lastIndexOf(null) + 1;
  }

  private void close() {
    changes.clear();
    records.clear();
    undo.clear();
    open = false;
  }
}
