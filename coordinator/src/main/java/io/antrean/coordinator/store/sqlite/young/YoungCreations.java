package io.antrean.coordinator.store.sqlite.young;

import java.util.ArrayDeque;

/**
 * Where in the {@link YoungJobLog} each young job's creation is, oldest first: a fold of the oldest
 * jobs may cut the log just before the creation of the oldest job it leaves young, since every
 * record of a job comes after its creation and jobs are created in id order; and when each was
 * written, for a fold of the jobs young for a while. Not thread-safe: the writer's thread keeps it.
 */
public final class YoungCreations {
  private record Creation(long jobId, long position, long nanos) {}

  private final ArrayDeque<Creation> creations = new ArrayDeque<>();

  /**
   * The job's creation was written at {@code position} at {@code nanos} ({@link System#nanoTime});
   * ids and positions only go up.
   */
  public void created(long jobId, long position, long nanos) {
    creations.addLast(new Creation(jobId, position, nanos));
  }

  /** When the oldest creation kept was written ({@link System#nanoTime}), or 0 if none is kept. */
  public long oldestNanos() {
    Creation oldest = creations.peekFirst();
    return oldest == null ? 0 : oldest.nanos();
  }

  /**
   * The largest id among the {@code atMost} oldest jobs created before {@code nanos}, or 0 if none
   * is kept.
   */
  public long lastIdCreatedBefore(long nanos, int atMost) {
    long lastId = 0;
    int seen = 0;
    for (Creation c : creations) {
      if (seen++ == atMost || c.nanos() - nanos >= 0) {
        break;
      }
      lastId = c.jobId();
    }
    return lastId;
  }

  /**
   * The last position a fold of every job up to {@code lastId} lets the log drop: just before the
   * creation of the first job after it, or {@code end} (the last position written) if none is
   * written yet.
   */
  public long foldedUpTo(long lastId, long end) {
    for (Creation c : creations) {
      if (c.jobId() > lastId) {
        return c.position() - 1;
      }
    }
    return end;
  }

  /** Forgets the creations of the jobs up to {@code lastId}: a fold of them committed. */
  public void foldedThrough(long lastId) {
    while (!creations.isEmpty() && creations.peekFirst().jobId() <= lastId) {
      creations.removeFirst();
    }
  }
}
