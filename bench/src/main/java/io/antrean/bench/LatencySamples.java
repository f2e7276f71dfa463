package io.antrean.bench;

import java.util.Arrays;
import javax.annotation.concurrent.GuardedBy;

/**
 * Every latency a scenario measured, in nanoseconds, kept whole so that percentiles are exact for
 * the sample rather than estimated from buckets. Thread-safe: any thread may {@link #record}.
 */
final class LatencySamples {
  private final Object lock = new Object();

  @GuardedBy("lock")
  private long[] values;

  @GuardedBy("lock")
  private int size;

  /**
   * @param expected how many samples to make room for at once; more are accepted
   */
  LatencySamples(int expected) {
    values = new long[Math.max(16, expected)];
  }

  /** Adds one latency; negative values (clock trouble) count as zero. */
  void record(long nanos) {
    synchronized (lock) {
      if (size == values.length) {
        values = Arrays.copyOf(values, values.length * 2);
      }
      values[size++] = Math.max(0, nanos);
    }
  }

  /** How many latencies were recorded. */
  int count() {
    synchronized (lock) {
      return size;
    }
  }

  /** The percentiles of what was recorded so far; the samples themselves stay as they were. */
  LatencySummary summary() {
    long[] sorted;
    synchronized (lock) {
      sorted = Arrays.copyOf(values, size);
    }
    Arrays.sort(sorted);
    return LatencySummary.ofSorted(sorted);
  }
}
