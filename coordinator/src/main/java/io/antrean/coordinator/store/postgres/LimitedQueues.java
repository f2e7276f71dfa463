package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.store.jdbc.QueueRows;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.Nullable;

/**
 * Which queues have limits, as last read, so that a lease in a queue without limits takes the
 * one-statement path and pays nothing for the feature. Read again at most once a second (by the
 * {@code now} of the leases), and at once after this store changes a limit.
 *
 * <p>A stale answer is safe: the one-statement lease itself passes over a queue that has limits (it
 * reads the queue's row), so a limit set through another coordinator holds back this one's leases
 * in that queue until the next read, and never lets them exceed it. Thread-safe.
 */
final class LimitedQueues {
  static final Duration REFRESH = Duration.ofSeconds(1);

  private final PooledTransactions db;
  private final Object lock = new Object();
  private volatile Set<String> limited = Set.of();
  @Nullable private volatile Instant readAt;

  LimitedQueues(PooledTransactions db) {
    this.db = db;
  }

  /** True when the queue had limits at the last read, reading again first if that is stale. */
  boolean hasLimits(String queue, Instant now) {
    Instant last = readAt;
    if (last == null || !now.isBefore(last.plus(REFRESH)) || now.isBefore(last)) {
      refresh(now);
    }
    return limited.contains(queue);
  }

  /**
   * Jobs that ran have stopped running: for those in a queue with limits, a slot is free, so every
   * coordinator's Lease calls waiting on the queue are told (NOTIFY) to look again. Nothing is sent
   * for queues without limits.
   *
   * @param queues the jobs' queues, one entry per job
   */
  void slotsFreed(List<String> queues, Instant now) {
    Set<String> limited = new TreeSet<>();
    for (String queue : queues) {
      if (hasLimits(queue, now)) {
        limited.add(queue);
      }
    }
    if (!limited.isEmpty()) {
      db.autoCommitted(
          "wake limited queues",
          tx -> {
            limited.forEach(tx::jobsReady);
            return null;
          });
    }
  }

  /** Forgets the last read, so the next lease reads again (after a limit changed here). */
  void invalidate() {
    readAt = null;
  }

  private void refresh(Instant now) {
    synchronized (lock) {
      Instant last = readAt;
      if (last != null && now.isBefore(last.plus(REFRESH)) && !now.isBefore(last)) {
        return; // another thread just read
      }
      limited = Set.copyOf(db.autoCommitted("list limited queues", QueueRows::limited).keySet());
      readAt = now;
    }
  }
}
