package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.sqlite.NewJobRows.PlainEnqueue;
import io.antrean.coordinator.store.sqlite.young.YoungJobs;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which plain Enqueues keep their jobs young, and how ({@link YoungLayer}): a group's Enqueues in
 * runs of at most {@link YoungLayer#MAX_RUN_JOBS} jobs, each job small enough for memory and for a
 * record of the log, stored under ids after every id in use.
 */
final class YoungEnqueues {
  private YoungEnqueues() {}

  /**
   * Where the run of plain Enqueues {@code group[from, end)} ends where young jobs are kept: before
   * the Enqueue that takes its jobs past {@link YoungLayer#MAX_RUN_JOBS} (the first stays in
   * whatever its size, and goes to the rows if larger).
   */
  static int runEnd(List<WriteTask<?>> group, int from, int end) {
    int jobs = 0;
    long bytes = 0;
    for (int i = from; i < end; i++) {
      for (NewJob job : group.get(i).plainEnqueue().jobs()) {
        jobs++;
        bytes += job.payloadSize();
      }
      if (i > from && !roomFor(jobs, bytes)) {
        return i;
      }
    }
    return end;
  }

  /**
   * Whether every task of the group is a plain Enqueue and the young jobs take all their jobs as
   * one run ({@link #fits}, which holds for every part of the run too): with no fold due before it,
   * such a group changes no row.
   */
  static boolean takeWhole(List<WriteTask<?>> group) {
    for (WriteTask<?> task : group) {
      if (task.plainEnqueue() == null) {
        return false;
      }
    }
    return fits(group);
  }

  private static boolean roomFor(int jobs, long bytes) {
    return jobs <= YoungLayer.MAX_RUN_JOBS && bytes <= YoungLayer.MAX_RUN_BYTES;
  }

  /**
   * Whether these plain Enqueues' jobs may be young: each small enough for memory and for a record
   * of the log ({@link YoungJobs#fits}), and all of them no more than a run may make young, so that
   * memory holds at most the bound and one run of Enqueues (and what the completions of one group
   * add in results).
   */
  static boolean fits(List<WriteTask<?>> enqueues) {
    int jobs = 0;
    long bytes = 0;
    for (WriteTask<?> task : enqueues) {
      for (NewJob job : task.plainEnqueue().jobs()) {
        jobs++;
        bytes += job.payloadSize();
        if (!YoungJobs.fits(
            job.payloadSize(),
            job.queue(),
            job.type(),
            job.contentType(),
            job.traceParent(),
            job.concurrencyKey())) {
          return false;
        }
      }
    }
    return roomFor(jobs, bytes);
  }

  /**
   * Keeps the jobs of these plain Enqueues young, under ids after every id in use: after the young
   * ones, which are above every id the table has had while any is young (every other insert folds
   * them all first), and after the table's when none is.
   */
  static void store(CachedConnection connection, YoungJobs young, List<WriteTask<?>> enqueues)
      throws SQLException {
    long id =
        young.isEmpty()
            ? Math.max(YoungFolds.nextJobId(connection), young.lastId() + 1)
            : young.lastId() + 1;
    for (WriteTask<?> task : enqueues) {
      PlainEnqueue enqueue = task.plainEnqueue();
      List<Job> stored = new ArrayList<>(enqueue.jobs().size());
      for (NewJob job : enqueue.jobs()) {
        young.create(id, job, enqueue.now());
        stored.add(SqliteDialect.INSTANCE.reader().inserted(id, job, enqueue.now()));
        id++;
      }
      task.stored(NewJobRows.asNew(stored));
    }
  }
}
