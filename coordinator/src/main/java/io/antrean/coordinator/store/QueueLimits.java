package io.antrean.coordinator.store;

import javax.annotation.Nullable;

/**
 * A queue's concurrency and rate limits, enforced at lease time by the store (see {@link
 * JobStore#lease}).
 *
 * @param maxRunning at most this many of the queue's jobs RUNNING at once, across every worker and
 *     coordinator; null for no cap
 * @param maxRunningPerKey at most this many RUNNING jobs with one concurrency key; jobs without a
 *     key are only held by {@code maxRunning}; null for no cap
 * @param rate at most this many of the queue's jobs started per interval; null for none
 * @param ratePerKey at most this many jobs with one concurrency key started per interval; jobs
 *     without a key are only held by {@code rate}; null for none
 */
public record QueueLimits(
    @Nullable Integer maxRunning,
    @Nullable Integer maxRunningPerKey,
    @Nullable RateLimit rate,
    @Nullable RateLimit ratePerKey) {
  /** No limit at all: the lease path is the plain one. */
  public static final QueueLimits NONE = new QueueLimits(null, null, null, null);

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

  /** Concurrency limits only. */
  public QueueLimits(@Nullable Integer maxRunning, @Nullable Integer maxRunningPerKey) {
    this(maxRunning, maxRunningPerKey, null, null);
  }

  /** True when any limit is set. */
  public boolean limited() {
    return maxRunning != null || maxRunningPerKey != null || rate != null || ratePerKey != null;
  }

  /** True when a limit holds per concurrency key. */
  public boolean keyed() {
    return maxRunningPerKey != null || ratePerKey != null;
  }
}
