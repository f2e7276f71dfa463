package io.antrean.coordinator.store.sqlite.young;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The open group of {@link YoungJobs}: the changes made to memory since the group began, each with
 * its record for the log and how to undo it, in order, so that an operation's savepoint rollback
 * ({@link #rollbackTo}) or a group that does not commit ({@link #abandon}) undoes what it made, and
 * a group that commits hands over only the records made after its last fold of every job. Not
 * thread-safe.
 */
final class YoungGroup {
  // A step of the group: a change with its record, or a fold (neither); each with its undo.
  private record Step(@Nullable LoggedChange change, Runnable undo, boolean fold) {}

  private final List<Step> steps = new ArrayList<>();
  private boolean open;
  private boolean replaying;

  void begin() {
    if (open) {
      throw new IllegalStateException("a group is already open");
    }
    open = true;
  }

  /**
   * Opens a group for a change replayed from the log: it records nothing (the log has its record
   * already) and keeps no undo, until {@link #endReplay}.
   */
  void beginReplay() {
    begin();
    replaying = true;
  }

  void endReplay() {
    replaying = false;
    close();
  }

  boolean isOpen() {
    return open;
  }

  int mark() {
    requireOpen();
    return steps.size();
  }

  void rollbackTo(int mark) {
    requireOpen();
    while (steps.size() > mark) {
      steps.remove(steps.size() - 1).undo().run();
    }
  }

  /**
   * Keeps a change made to memory, and how to undo it; undoes it at once if its record cannot be
   * made (too large for the log, a text the log cannot hold), so that its operation fails instead
   * of the log after the commit.
   */
  void record(YoungChange change, Runnable undoIt) {
    requireOpen();
    if (replaying) {
      return;
    }
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
    steps.add(new Step(new LoggedChange(change, bytes), undoIt, false));
  }

  /**
   * A fold of every young job, which writes no record (the log is cut at its position instead), and
   * its undo: the changes before it are not for the log.
   */
  void folded(Runnable undoIt) {
    requireOpen();
    steps.add(new Step(null, undoIt, true));
  }

  /**
   * A fold of some young jobs, and its undo: the changes before it still go to the log, for the
   * jobs that stay young (a replay passes over those of the jobs folded).
   */
  void foldedSome(Runnable undoIt) {
    requireOpen();
    steps.add(new Step(null, undoIt, false));
  }

  /** Closes the group; returns the changes made after its last fold of every job, in order. */
  List<YoungChange> commit() {
    List<YoungChange> made = new ArrayList<>();
    for (LoggedChange c : forLog()) {
      made.add(c.change());
    }
    close();
    return made;
  }

  /** Closes the group; returns the changes and their records for the log, in order. */
  List<LoggedChange> commitRecords() {
    List<LoggedChange> made = forLog();
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

  // A fold of every job in the group wrote every change before it into the database: only those
  // after the last such fold are for the log.
  private List<LoggedChange> forLog() {
    requireOpen();
    List<LoggedChange> made = new ArrayList<>();
    for (int i = steps.size() - 1; i >= 0 && !steps.get(i).fold(); i--) {
      if (steps.get(i).change() != null) {
        made.add(steps.get(i).change());
      }
    }
    Collections.reverse(made);
    return made;
  }

  private void close() {
    steps.clear();
    open = false;
  }
}
