package io.antrean.worker.internal;

import java.util.List;

/**
 * Ends the worker's hold on jobs whose outcome has been answered (or given up on): drops their
 * leases from the lease table, so heartbeats stop carrying them and shutdown stops waiting for
 * them, and gives their handler slots back to the poll loop. Each job is settled exactly once.
 *
 * <p>Thread-safe.
 */
final class JobSettler {
  private final LeaseTable leases;
  private final SlotPool slots;

  JobSettler(LeaseTable leases, SlotPool slots) {
    this.leases = leases;
    this.slots = slots;
  }

  /** Settles one job. */
  void settle(HeldLease lease) {
    leases.remove(lease);
    slots.release(1);
  }

  /**
   * Settles several jobs at once. Their slots come back together, so the poll loop can ask for all
   * of them in one Lease.
   */
  void settleAll(List<HeldLease> settled) {
    settleAll(settled, 0);
  }

  /**
   * Settles several jobs and keeps {@code kept} of their slots out of the pool, for jobs that take
   * them over at once ({@link SlotRefill}); the others come back together.
   */
  void settleAll(List<HeldLease> settled, int kept) {
    if (kept < 0 || kept > settled.size()) {
      throw new IllegalArgumentException(
          "kept must be between 0 and " + settled.size() + ": " + kept);
    }
    if (settled.isEmpty()) {
      return;
    }
    leases.removeAll(settled);
    slots.release(settled.size() - kept);
  }
}
