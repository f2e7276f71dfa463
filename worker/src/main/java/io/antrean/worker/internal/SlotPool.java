package io.antrean.worker.internal;

import java.util.concurrent.Semaphore;

/**
 * The worker's free handler slots. The poll loop takes slots before it asks for jobs and asks for
 * exactly as many jobs as it holds slots, so the worker never leases a job it has no thread for;
 * each job gives its slot back once its outcome has been reported.
 *
 * <p>Thread-safe.
 */
final class SlotPool {
  private final int capacity;
  private final Semaphore free;

  SlotPool(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
    }
    this.capacity = capacity;
    this.free = new Semaphore(capacity);
  }

  /**
   * Waits until at least one slot is free, then takes every free slot up to {@code max}.
   *
   * @return the number of slots taken, between 1 and {@code max}
   * @throws InterruptedException if interrupted while no slot was free; nothing is taken then
   */
  int acquireUpTo(int max) throws InterruptedException {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1: " + max);
    }
    free.acquire();
    int taken = 1;
    while (taken < max && free.tryAcquire()) {
      taken++;
    }
    return taken;
  }

  /**
   * Takes every free slot up to {@code max} without waiting.
   *
   * @return the number of slots taken, between 0 and {@code max}
   */
  int tryAcquireUpTo(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1: " + max);
    }
    int taken = 0;
    while (taken < max && free.tryAcquire()) {
      taken++;
    }
    return taken;
  }

  /** Gives back {@code count} slots taken with {@link #acquireUpTo} or {@link #tryAcquireUpTo}. */
  void release(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative: " + count);
    }
    if (count > 0) {
      free.release(count);
    }
  }

  int free() {
    return free.availablePermits();
  }

  int capacity() {
    return capacity;
  }
}
