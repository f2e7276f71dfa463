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
    if (settled.isEmpty()) {
      return;
    }
    leases.removeAll(settled);
    slots.release(settled.size());
  }
}
