package io.antrean.coordinator.core;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import java.time.Duration;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * What the scheduling core reports as it works, for metrics and job watchers: one call per job that
 * was enqueued, leased, completed, failed, dead-lettered, cancelled, released or taken back after
 * its lease expired, per batch of expired leases and per stale call. The core knows nothing of how
 * they are used (see {@code io.antrean.coordinator.metrics} and {@link JobWatchers}); {@link #both}
 * reports to two listeners.
 *
 * <p>Calls come on the threads that serve RPCs and run the background duties, right after the store
 * made the change durable, so an implementation must be thread-safe, quick and must not block. An
 * exception it throws is not caught: it would fail the call that reported it, so do not throw.
 * Every method does nothing by default.
 */
public interface SchedulerEvents {
  /** Reports nothing. */
  SchedulerEvents NONE = new SchedulerEvents() {};

  /** A new job was stored (not a deduplicated enqueue). */
  default void onEnqueued(Job job) {}

  /**
   * A job was leased to a worker at {@code leasedAt}. {@code job.attempts()} is 1 on the first
   * lease of a job's life (a redrive starts a new life).
   */
  default void onLeased(Job job, Instant leasedAt) {}

  /**
   * A job of {@code queue} succeeded. Named by its id and queue alone: a batch of completions reads
   * no more of its jobs back ({@link io.antrean.coordinator.store.CompletionOutcome}).
   *
   * @param runTime from its lease to now, or null when this coordinator did not grant the lease
   *     (granted before a restart, or by another coordinator sharing the store)
   */
  default void onCompleted(long jobId, String queue, @Nullable Duration runTime) {}

  /**
   * A worker reported a failed attempt of the given kind; {@code job} is the job after the change
   * (PENDING for a retry, FAILED when dead-lettered, CANCELLED when a cancel was pending).
   *
   * @param runTime as for {@link #onCompleted}
   */
  default void onFailed(Job job, ErrorKind kind, @Nullable Duration runTime) {}

  /** A job entered the dead-letter queue, through a failure or through its lease expiries. */
  default void onDeadLettered(Job job) {}

  /** A cancel was applied: {@code job} is CANCELLED, or still RUNNING with its cancel flag set. */
  default void onCancelled(Job job) {}

  /** A worker handed a job back without spending an attempt; {@code job} is after the change. */
  default void onReleased(Job job) {}

  /**
   * One job was taken back after its lease expired; {@code job} is after the change (PENDING, or
   * FAILED when its lease expiries are spent, which {@link #onDeadLettered} also reports).
   */
  default void onLeaseExpired(Job job) {}

  /** {@code count} expired leases were taken back by the given path; never called with 0. */
  default void onLeasesExpired(LeaseExpiryPath path, int count) {}

  /**
   * A worker presented a lease it no longer holds (Complete, Fail or Release with a stale fencing
   * token, or a lease a Heartbeat answered as lost); nothing changed but the job's history.
   */
  default void onStaleRejected() {}

  /** Reports every event to {@code first}, then to {@code second}. */
  static SchedulerEvents both(SchedulerEvents first, SchedulerEvents second) {
    return new BothEvents(first, second);
  }

  /** Which path took back an expired lease. */
  enum LeaseExpiryPath {
    /** The per-lease timer: the main path. */
    TIMER,
    /** The periodic backup sweep. */
    SWEEP
  }
}
