package io.antrean.coordinator.core;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.antrean.coordinator.store.LeaseRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import javax.annotation.Nullable;

/**
 * One timer per held lease: the main path of lease expiry. It remembers the latest expiry of each
 * lease, so a renewed lease's old timer fires without touching the store. It also remembers when
 * this coordinator granted each lease, so the run time of a finished job can be measured.
 *
 * <p>Time is a parameter: {@link #takeDue(Instant)} hands out the leases whose timer is due, and
 * {@link #nextDue()} tells a driving thread how long to sleep. Thread-safe.
 */
final class LeaseExpiryTimers {
  private final Object lock = new Object();

  @GuardedBy("lock")
  private final PriorityQueue<LeaseRef> timers =
      new PriorityQueue<>((a, b) -> a.expiresAt().compareTo(b.expiresAt()));

  @GuardedBy("lock")
  private final Map<Long, LeaseRef> current = new HashMap<>();

  /** When each lease in {@link #current} was granted, if this coordinator granted it. */
  @GuardedBy("lock")
  private final Map<Long, Grant> grants = new HashMap<>();

  /** Starts the timer of a lease just granted at {@code leasedAt}. */
  void track(LeaseRef lease, Instant leasedAt) {
    synchronized (lock) {
      grants.put(lease.jobId(), new Grant(lease.fencingToken(), leasedAt));
      track(lease);
    }
  }

  /** Starts (or moves) the timer of a lease to its expiry. */
  void track(LeaseRef lease) {
    synchronized (lock) {
      current.put(lease.jobId(), lease);
      timers.add(lease);
      if (timers.peek() == lease) {
        lock.notifyAll();
      }
    }
  }

  /** Forgets a job's lease (it finished, failed or was released). */
  void untrack(long jobId) {
    synchronized (lock) {
      current.remove(jobId);
      grants.remove(jobId);
    }
  }

  /**
   * Forgets a job's lease that just ended under {@code fencingToken}.
   *
   * @return when that lease was granted, or null if this coordinator did not grant it
   */
  @Nullable
  Instant untrack(long jobId, long fencingToken) {
    synchronized (lock) {
      current.remove(jobId);
      Grant grant = grants.remove(jobId);
      return grant != null && grant.fencingToken() == fencingToken ? grant.at() : null;
    }
  }

  /**
   * Removes and returns the leases whose latest expiry is at or before {@code now}. Stale timers
   * (the lease was renewed, finished or replaced) are dropped without being returned.
   */
  List<LeaseRef> takeDue(Instant now) {
    List<LeaseRef> due = new ArrayList<>();
    synchronized (lock) {
      LeaseRef timer;
      while ((timer = earliestLive()) != null && !timer.expiresAt().isAfter(now)) {
        timers.poll();
        current.remove(timer.jobId());
        grants.remove(timer.jobId());
        due.add(timer);
      }
    }
    return due;
  }

  /** The earliest timer of a live lease, or null when none is set. */
  Instant nextDue() {
    synchronized (lock) {
      LeaseRef next = earliestLive();
      return next == null ? null : next.expiresAt();
    }
  }

  /** Leases with a live timer. */
  int size() {
    synchronized (lock) {
      return current.size();
    }
  }

  /**
   * Blocks until a timer might be due or {@code maxWaitMillis} passed, whichever is first; wakes
   * early when a timer is added. For the driving thread only.
   */
  void awaitNext(long maxWaitMillis, Instant now) throws InterruptedException {
    synchronized (lock) {
      long wait = maxWaitMillis;
      LeaseRef next = earliestLive();
      if (next != null) {
        long untilDue = next.expiresAt().toEpochMilli() - now.toEpochMilli();
        wait = Math.min(wait, Math.max(untilDue, 0));
      }
      if (wait > 0) {
        lock.wait(wait);
      }
    }
  }

  /**
   * Drops the timers at the head that no longer belong to a live lease (the job finished, or the
   * lease was renewed and has a later timer), and returns the first that does. Most leases end long
   * before their timer; without this the driving thread would wake at each of their expiries (every
   * 2 ms at 500 jobs/s) only to drop it.
   */
  @GuardedBy("lock")
  @Nullable
  private LeaseRef earliestLive() {
    while (!timers.isEmpty()) {
      LeaseRef head = timers.peek();
      if (head.equals(current.get(head.jobId()))) {
        return head;
      }
      timers.poll();
    }
    return null;
  }

  private record Grant(long fencingToken, Instant at) {}
}
