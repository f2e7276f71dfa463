package io.antrean.coordinator.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Which path took back expired leases: the per-lease timer (the main path) or the periodic sweep
 * (the backup). A sweep that keeps finding work means the timers miss something. Thread-safe.
 */
public final class RecoveryCounters {
  private final AtomicLong byTimer = new AtomicLong();
  private final AtomicLong bySweep = new AtomicLong();

  void recordTimer(int n) {
    byTimer.addAndGet(n);
  }

  void recordSweep(int n) {
    bySweep.addAndGet(n);
  }

  /** Expired leases taken back by their timer. */
  public long expiredByTimer() {
    return byTimer.get();
  }

  /** Expired leases taken back by the backup sweep. */
  public long expiredBySweep() {
    return bySweep.get();
  }
}
