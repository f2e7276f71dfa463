package io.antrean.worker.internal;

import javax.annotation.concurrent.GuardedBy;

/**
 * The worker's places for leased jobs: one per handler thread, and as many more as the {@link
 * Prefetch} allows at the moment. The poll loop takes places before it asks for jobs and asks for
 * exactly as many jobs as it holds places, so the worker never leases more than that; each job
 * gives its place back once its outcome has been reported.
 *
 * <p>Lowering the prefetch takes nothing from jobs already leased: places given back then stay out
 * of the pool until the jobs held fit the new limit.
 *
 * <p>Thread-safe.
 */
final class SlotPool {
  private final int threads;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private int held;

  @GuardedBy("lock")
  private int prefetch;

  /**
   * @param threads the worker's handler threads, the places there are without prefetch
   */
  SlotPool(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    this.threads = threads;
  }

  /**
   * Waits until at least one place is free, then takes every free place up to {@code max}.
   *
   * @return the number of places taken, between 1 and {@code max}
   * @throws InterruptedException if interrupted while no place was free; nothing is taken then
   */
  int acquireUpTo(int max) throws InterruptedException {
    requireAtLeastOne(max);
    synchronized (lock) {
      while (free() == 0) {
        lock.wait();
      }
      return take(max);
    }
  }

  /**
   * Takes every free place up to {@code max} without waiting.
   *
   * @return the number of places taken, between 0 and {@code max}
   */
  int tryAcquireUpTo(int max) {
    requireAtLeastOne(max);
    synchronized (lock) {
      return take(max);
    }
  }

  /** Gives back {@code count} places taken with {@link #acquireUpTo} or {@link #tryAcquireUpTo}. */
  void release(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative: " + count);
    }
    if (count == 0) {
      return;
    }
    synchronized (lock) {
      if (count > held) {
        throw new IllegalStateException(count + " places given back, " + held + " were taken");
      }
      held -= count;
      if (free() > 0) {
        lock.notifyAll();
      }
    }
  }

  /**
   * How many of {@code freed} places, about to be given back, jobs may take over at once: all of
   * them unless the prefetch was lowered below what the worker holds.
   */
  int refillable(int freed) {
    synchronized (lock) {
      return Math.max(0, Math.min(freed, capacity() - (held - freed)));
    }
  }

  /** Sets how many jobs the worker may hold beyond its handler threads. */
  void prefetch(int jobs) {
    if (jobs < 0) {
      throw new IllegalArgumentException("prefetch must not be negative: " + jobs);
    }
    synchronized (lock) {
      boolean more = jobs > prefetch;
      prefetch = jobs;
      if (more) {
        lock.notifyAll();
      }
    }
  }

  int free() {
    synchronized (lock) {
      return Math.max(0, capacity() - held);
    }
  }

  /** The worker's handler threads, the places there are without prefetch. */
  int threads() {
    return threads;
  }

  /** The places there are now: the handler threads plus the current prefetch. */
  int capacity() {
    synchronized (lock) {
      return threads + prefetch;
    }
  }

  @GuardedBy("lock")
  private int take(int max) {
    int taken = Math.min(max, free());
    held += taken;
    return taken;
  }

  private static void requireAtLeastOne(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1: " + max);
    }
  }
}
