package io.antrean.bench;

/**
 * Percentiles of a latency sample, each one of the measured values (nearest rank: the p-th
 * percentile of n sorted values is the value at rank ceil(p/100 * n)). Immutable.
 *
 * @param count how many values the sample held
 * @param p50Nanos the median
 * @param p90Nanos the 90th percentile
 * @param p99Nanos the 99th percentile
 * @param maxNanos the largest value
 */
record LatencySummary(int count, long p50Nanos, long p90Nanos, long p99Nanos, long maxNanos) {

  /**
   * The summary of {@code sorted}.
   *
   * @param sorted the sample in ascending order; not modified
   * @throws IllegalArgumentException if the sample is empty
   */
  static LatencySummary ofSorted(long[] sorted) {
    if (sorted.length == 0) {
      throw new IllegalArgumentException("no latencies were measured");
    }
    return new LatencySummary(
        sorted.length,
        percentile(sorted, 500),
        percentile(sorted, 900),
        percentile(sorted, 990),
        sorted[sorted.length - 1]);
  }

  /**
   * The nearest-rank percentile of a non-empty sorted sample; integer arithmetic, so 99 % of 100
   * values is exactly the 99th.
   *
   * @param perMille the percentile in thousandths, 1 to 1000 (990 for p99)
   */
  static long percentile(long[] sorted, int perMille) {
    if (perMille < 1 || perMille > 1000) {
      throw new IllegalArgumentException("perMille must be 1 to 1000, got " + perMille);
    }
    long rank = ((long) perMille * sorted.length + 999) / 1000;
    return sorted[(int) Math.max(0, rank - 1)];
  }

  /** Nanoseconds as milliseconds, for printing. */
  static double millis(long nanos) {
    return nanos / 1e6;
  }
}
