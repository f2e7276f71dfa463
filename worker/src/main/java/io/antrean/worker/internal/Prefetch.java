package io.antrean.worker.internal;

import javax.annotation.concurrent.GuardedBy;

/**
 * Decides how many jobs the worker leases beyond its handler threads. While a CompleteBatch carries
 * finished jobs to the coordinator and brings their successors, handlers with nothing else to run
 * wait idle; jobs leased ahead keep them busy. The worker leases ahead as many jobs as its handlers
 * finish during one such round trip (handler threads x round trip / time a handler takes, from
 * moving averages of both), at most the configured maximum. When a handler takes longer than the
 * round trip times the handler threads, none: a long job then never waits in one worker behind
 * another while a different worker could run it.
 *
 * <p>Nothing is leased ahead until both have been measured. Each round trip updates the {@link
 * SlotPool}.
 *
 * <p>Thread-safe: handler threads report their times, the completion sender its round trips.
 */
final class Prefetch {
  /** Each new measurement moves an average by this fraction of its distance, as TCP's SRTT does. */
  private static final double WEIGHT = 0.125;

  private final int max;
  private final SlotPool slots;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private double handlerNanos = Double.NaN;

  @GuardedBy("lock")
  private double roundTripNanos = Double.NaN;

  /**
   * @param max the most jobs to lease ahead; 0 turns prefetch off
   * @param slots the worker's places for jobs, one per handler thread, where the prefetch takes
   *     effect
   */
  Prefetch(int max, SlotPool slots) {
    if (max < 0) {
      throw new IllegalArgumentException("max must not be negative: " + max);
    }
    this.max = max;
    this.slots = slots;
  }

  /** A handler ran a job in {@code nanos}. */
  void handlerRan(long nanos) {
    if (max == 0) {
      return;
    }
    synchronized (lock) {
      handlerNanos = average(handlerNanos, nanos);
    }
  }

  /** A CompleteBatch was answered {@code nanos} after it was sent; updates the slots. */
  void roundTrip(long nanos) {
    if (max == 0) {
      return;
    }
    int jobs;
    synchronized (lock) {
      roundTripNanos = average(roundTripNanos, nanos);
      jobs = jobs();
    }
    slots.prefetch(jobs);
  }

  /** The jobs to lease ahead now. */
  int jobs() {
    synchronized (lock) {
      if (Double.isNaN(handlerNanos) || Double.isNaN(roundTripNanos)) {
        return 0;
      }
      double finishedPerRoundTrip = slots.threads() * roundTripNanos / Math.max(1.0, handlerNanos);
      return (int) Math.min(max, Math.floor(finishedPerRoundTrip));
    }
  }

  private static double average(double average, long nanos) {
    return Double.isNaN(average) ? nanos : average + WEIGHT * (nanos - average);
  }
}
