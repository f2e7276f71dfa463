package io.antrean.coordinator.core;

import io.antrean.coordinator.core.SchedulerEvents.LeaseExpiryPath;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which path took back expired leases: the per-lease timer (the main path) or the periodic sweep
 * (the backup). A sweep that keeps finding work means the timers miss something. Each count is also
 * reported to the {@link SchedulerEvents} given. Thread-safe.
 */
public final class RecoveryCounters {
  private final AtomicLong byTimer = new AtomicLong();
  private final AtomicLong bySweep = new AtomicLong();
  private final SchedulerEvents events;

  public RecoveryCounters() {
    this(SchedulerEvents.NONE);
  }

  public RecoveryCounters(SchedulerEvents events) {
    this.events = events;
  }

  void recordTimer(int n) {
    byTimer.addAndGet(n);
    if (n > 0) {
      events.onLeasesExpired(LeaseExpiryPath.TIMER, n);
    }
  }

  void recordSweep(int n) {
    bySweep.addAndGet(n);
    if (n > 0) {
      events.onLeasesExpired(LeaseExpiryPath.SWEEP, n);
    }
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
