package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.worker.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs leased to this worker for a request it had withdrawn when their answer came (its deadline
 * passed, or the worker began to stop; the answer crossed the withdrawal on the wire): no handler
 * runs them and no slot is theirs, so each is released at once ("lease call gone", the reason the
 * coordinator gives when it hands such jobs back itself), spending no attempt, instead of waiting
 * for its lease to expire. Release is a blocking call and the answer is read on the transport's
 * thread, so each batch goes on a thread of its own; termination waits for them ({@link #await}).
 *
 * <p>Thread-safe.
 */
final class UnclaimedJobs {
  private static final Logger log = LoggerFactory.getLogger(UnclaimedJobs.class);
  static final String REASON = "lease call gone";

  private final OutcomeReporter reporter;
  private final Ticker ticker;
  private final long ttlNanos;
  private final Set<Thread> releasing = ConcurrentHashMap.newKeySet();

  /**
   * @param ttlNanos how long, from now, a job's lease may still be counted on
   */
  UnclaimedJobs(OutcomeReporter reporter, Ticker ticker, long ttlNanos) {
    this.reporter = reporter;
    this.ticker = ticker;
    this.ttlNanos = ttlNanos;
  }

  /** Releases {@code jobs}, on a thread of their own; never blocks. */
  void handBack(List<Job> jobs) {
    long deadline = ticker.nanos() + ttlNanos;
    Runnable release =
        () -> {
          try {
            jobs.forEach(j -> reporter.release(new HeldLease(j, deadline), REASON, true));
          } finally {
            releasing.remove(Thread.currentThread());
          }
        };
    Thread thread = new WorkerThreads("release").newThread(WorkerThreads.guarded(release));
    releasing.add(thread);
    thread.start();
  }

  /**
   * At termination, before the channel may close: waits for the coordinator to end the Work stream
   * {@code work} half-closed, so that every answer on its way has arrived, then for the releases of
   * their jobs; both within {@code timeout}.
   */
  void await(WorkStreamClient work, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      if (!work.awaitClosed(timeout)) {
        log.debug("the Work stream did not end within {}", timeout);
      }
      for (Thread thread : releasing) {
        thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
