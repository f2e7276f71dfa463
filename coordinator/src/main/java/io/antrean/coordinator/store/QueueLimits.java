package io.antrean.coordinator.store;

import javax.annotation.Nullable;

/**
 * A queue's concurrency limits, enforced at lease time by the store (see {@link JobStore#lease}).
 *
 * @param maxRunning at most this many of the queue's jobs RUNNING at once, across every worker and
 *     coordinator; null for no cap
 * @param maxRunningPerKey at most this many RUNNING jobs with one concurrency key; jobs without a
 *     key are only held by {@code maxRunning}; null for no cap
 */
public record QueueLimits(@Nullable Integer maxRunning, @Nullable Integer maxRunningPerKey) {
  /** No limit at all: the lease path is the plain one. */
  public static final QueueLimits NONE = new QueueLimits(null, null);

  /**
   * @throws IllegalArgumentException for a limit below 1 (pause a queue to stop it instead)
   */
  public QueueLimits {
    if (maxRunning != null && maxRunning < 1) {
      throw new IllegalArgumentException("maxRunning must be at least 1, was " + maxRunning);
    }
    if (maxRunningPerKey != null && maxRunningPerKey < 1) {
      throw new IllegalArgumentException(
          "maxRunningPerKey must be at least 1, was " + maxRunningPerKey);
    }
  }

  /** True when any limit is set. */
  public boolean limited() {
    return maxRunning != null || maxRunningPerKey != null;
  }
}
