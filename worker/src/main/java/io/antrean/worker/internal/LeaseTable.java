package io.antrean.worker.internal;

import io.antrean.worker.CancellationReason;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * Every lease this worker holds, from the moment a job is leased until its outcome has been
 * reported. The lease keeper heartbeats what is in here; shutdown waits for it to empty.
 *
 * <p>Thread-safe.
 */
final class LeaseTable {
  private final Map<LeaseKey, HeldLease> leases = new ConcurrentHashMap<>();
  private final Object changed = new Object();

  void add(HeldLease lease) {
    leases.put(lease.key(), lease);
  }

  void remove(HeldLease lease) {
    leases.remove(lease.key(), lease);
    wakeWaiters();
  }

  /** Removes every lease of {@code removed}, waking waiters once. */
  void removeAll(Collection<HeldLease> removed) {
    for (HeldLease lease : removed) {
      leases.remove(lease.key(), lease);
    }
    wakeWaiters();
  }

  HeldLease get(LeaseKey key) {
    return leases.get(key);
  }

  /** A copy of the current leases, in no particular order. */
  List<HeldLease> snapshot() {
    return List.copyOf(leases.values());
  }

  int size() {
    return leases.size();
  }

  boolean isEmpty() {
    return leases.isEmpty();
  }

  /** Stops every held job for {@code reason} (see {@link HeldLease#stop}). */
  void stopAll(CancellationReason reason) {
    for (HeldLease lease : snapshot()) {
      lease.stop(reason);
    }
  }

  /**
   * Waits until no lease is held, {@code timeout} has passed, or {@code giveUp} turns true (call
   * {@link #wakeWaiters()} after changing what it reads).
   *
   * @return true if the table is empty
   * @throws InterruptedException if interrupted while waiting
   */
  boolean awaitEmpty(Duration timeout, BooleanSupplier giveUp) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (changed) {
      while (!leases.isEmpty() && !giveUp.getAsBoolean()) {
        long leftMillis = (deadline - System.nanoTime() + 999_999) / 1_000_000;
        if (leftMillis <= 0) {
          break;
        }
        changed.wait(leftMillis);
      }
    }
    return leases.isEmpty();
  }

  /** Wakes threads in {@link #awaitEmpty} so they look again. */
  void wakeWaiters() {
    synchronized (changed) {
      changed.notifyAll();
    }
  }
}
