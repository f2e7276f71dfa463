package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.worker.CancellationReason;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.annotation.concurrent.GuardedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lease this worker holds: the job, its fencing token, the local deadline on the monotonic
 * ticker, the latest progress note, and whether (and why) the job has been stopped.
 *
 * <p>Life: the poll loop creates it; the handler thread brackets the handler with {@link
 * #beginHandler} and {@link #endHandler}; the lease keeper extends or stops it; whoever first
 * {@linkplain #claimOutcome() claims the outcome} reports it. Stopping interrupts the handler
 * thread only between begin and end, so a stop can never hit the thread while it reports or runs
 * another job.
 *
 * <p>Thread-safe.
 */
final class HeldLease {
  private static final Logger log = LoggerFactory.getLogger(HeldLease.class);

  private final Job job;
  private final LeaseKey key;
  private final AtomicReference<CancellationReason> stopReason = new AtomicReference<>();
  private final AtomicBoolean outcomeClaimed = new AtomicBoolean();
  private final List<Runnable> stopCallbacks = new CopyOnWriteArrayList<>();
  private volatile long deadlineNanos;
  private volatile String progress = "";

  private final Object lock = new Object();

  @GuardedBy("lock")
  private Thread handlerThread;

  HeldLease(Job job, long deadlineNanos) {
    this.job = job;
    this.key = new LeaseKey(job.getId(), job.getLease().getFencingToken());
    this.deadlineNanos = deadlineNanos;
  }

  Job job() {
    return job;
  }

  LeaseKey key() {
    return key;
  }

  long jobId() {
    return key.jobId();
  }

  long fencingToken() {
    return key.fencingToken();
  }

  /** The lease id the Lease answer gave; echoed on every call about this lease, never logged. */
  String leaseId() {
    return job.getLease().getLeaseId();
  }

  long deadlineNanos() {
    return deadlineNanos;
  }

  /** Nanoseconds left before the local deadline; zero or less once it has passed. */
  long remainingNanos(long nowNanos) {
    return deadlineNanos - nowNanos;
  }

  boolean isOverdue(long nowNanos) {
    return remainingNanos(nowNanos) <= 0;
  }

  /** Moves the local deadline after the coordinator extended the lease. */
  void extendTo(long newDeadlineNanos) {
    if (isGone()) {
      return;
    }
    deadlineNanos = newDeadlineNanos;
  }

  String progress() {
    return progress;
  }

  void progress(String note) {
    progress = note;
  }

  /**
   * Stops the job for {@code reason}: interrupts its handler if it is running and runs the stop
   * callbacks. Only the first stop counts.
   *
   * @return true if this call stopped the job, false if it was already stopped
   */
  boolean stop(CancellationReason reason) {
    if (!stopReason.compareAndSet(null, reason)) {
      return false;
    }
    synchronized (lock) {
      if (handlerThread != null) {
        handlerThread.interrupt();
      }
    }
    for (Runnable callback : stopCallbacks) {
      runQuietly(callback);
    }
    return true;
  }

  Optional<CancellationReason> stopReason() {
    return Optional.ofNullable(stopReason.get());
  }

  boolean isStopped() {
    return stopReason.get() != null;
  }

  /** Whether the coordinator no longer counts this worker as the owner (lost or expired). */
  boolean isGone() {
    CancellationReason reason = stopReason.get();
    return reason == CancellationReason.LEASE_LOST || reason == CancellationReason.LEASE_EXPIRED;
  }

  /** Registers a stop callback; runs it at once if the job is already stopped. */
  void onStop(Runnable callback) {
    AtomicBoolean ran = new AtomicBoolean();
    Runnable once =
        () -> {
          if (ran.compareAndSet(false, true)) {
            callback.run();
          }
        };
    stopCallbacks.add(once);
    if (isStopped()) {
      runQuietly(once);
    }
  }

  /**
   * Marks {@code thread} as running the handler, so a stop interrupts it.
   *
   * @return false if the job was stopped before the handler could start; do not run it then
   */
  boolean beginHandler(Thread thread) {
    synchronized (lock) {
      handlerThread = thread;
      return stopReason.get() == null;
    }
  }

  /**
   * Marks the handler as finished, so no later stop interrupts the thread, and clears an interrupt
   * that a stop delivered for the handler (the thread goes on to report and to serve other jobs).
   *
   * @return why the job was stopped while the handler ran, or null if it ran undisturbed
   */
  CancellationReason endHandler() {
    synchronized (lock) {
      handlerThread = null;
      Thread.interrupted();
      return stopReason.get();
    }
  }

  /** Whether the caller is the one (and only one) who reports this job's outcome. */
  boolean claimOutcome() {
    return outcomeClaimed.compareAndSet(false, true);
  }

  private void runQuietly(Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      log.warn("cancellation callback of job {} failed", key.jobId(), e);
    }
  }

  @Override
  public String toString() {
    return "lease of job " + key.jobId() + " (token " + key.fencingToken() + ")";
  }
}
