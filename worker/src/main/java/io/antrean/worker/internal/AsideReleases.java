package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.worker.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases sent on threads of their own, because the thread that has the jobs read a Lease or
 * CompleteBatch answer and must not block on a call: jobs leased as shutdown began ({@link #run}),
 * and jobs leased for a request this worker had already withdrawn ({@link #handBack}). Termination
 * waits for them ({@link #await}) before the channel may close.
 *
 * <p>Thread-safe.
 */
final class AsideReleases {
  private static final Logger log = LoggerFactory.getLogger(AsideReleases.class);

  /** The reason a coordinator gives when it hands such jobs back itself. */
  static final String LEASE_CALL_GONE = "lease call gone";

  private final OutcomeReporter reporter;
  private final Ticker ticker;
  private final long ttlNanos;
  private final Object lock = new Object();
  private int running; // guarded by lock: started, not yet finished

  /**
   * @param ttlNanos how long, from now, a newly leased job's lease may still be counted on
   */
  AsideReleases(OutcomeReporter reporter, Ticker ticker, long ttlNanos) {
    this.reporter = reporter;
    this.ticker = ticker;
    this.ttlNanos = ttlNanos;
  }

  /** Runs {@code release} on a thread of its own; never blocks. */
  void run(Runnable release) {
    Runnable tracked =
        () -> {
          try {
            release.run();
          } finally {
            synchronized (lock) {
              running--;
              lock.notifyAll();
            }
          }
        };
    synchronized (lock) {
      running++;
    }
    new WorkerThreads("release").newThread(WorkerThreads.guarded(tracked)).start();
  }

  /**
   * Releases jobs leased to this worker for a request it had withdrawn when their answer came (its
   * deadline passed, or the worker began to stop; the answer crossed the withdrawal on the wire):
   * no handler runs them and no slot is theirs, so each goes back at once, spending no attempt,
   * instead of waiting for its lease to expire. Never blocks.
   */
  void handBack(List<Job> jobs) {
    long deadline = ticker.nanos() + ttlNanos;
    run(
        () ->
            jobs.forEach(j -> reporter.release(new HeldLease(j, deadline), LEASE_CALL_GONE, true)));
  }

  /**
   * At termination, before the channel may close: waits for the coordinator to end the Work stream
   * {@code work} half-closed, so that every answer on its way has arrived, then until no release is
   * running (one started meanwhile included); both within {@code timeout}.
   */
  void await(WorkStreamClient work, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      if (!work.awaitClosed(timeout)) {
        log.debug("the Work stream did not end within {}", timeout);
      }
      synchronized (lock) {
        long left;
        while (running > 0 && (left = deadline - System.nanoTime()) > 0) {
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        }
        if (running > 0) {
          log.debug("{} releases still running after {}", running, timeout);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
