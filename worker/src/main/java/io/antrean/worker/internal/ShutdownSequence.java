package io.antrean.worker.internal;

import io.antrean.worker.CancellationReason;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's drain, step by step: stop leasing; release at once the jobs leased ahead that no
 * handler has started (they spend no attempt); let running jobs finish within the grace while the
 * lease keeper goes on heartbeating them; stop (interrupt) what is left so each handler thread
 * releases its job; and, for handlers that ignore interruption, release their jobs for them after a
 * short window and ignore their outcome. {@link #skipGrace()} cuts the grace short at any point.
 *
 * <p>Thread-safe: {@link #drain()} runs once, on the shutdown thread; {@link #skipGrace()} may be
 * called from any thread.
 */
final class ShutdownSequence {
  private static final Logger log = LoggerFactory.getLogger(ShutdownSequence.class);

  /** How long stopped handlers get to release their jobs before the worker releases them. */
  private static final Duration RELEASE_WINDOW = Duration.ofSeconds(5);

  private static final Duration POLLER_JOIN = Duration.ofSeconds(5);

  private final String workerId;
  private final LeasePoller poller;
  private final Runnable releaseWaiting;
  private final LeaseTable leases;
  private final OutcomeReporter reporter;
  private final Duration grace;
  private volatile boolean graceSkipped;

  ShutdownSequence(
      String workerId,
      LeasePoller poller,
      Runnable releaseWaiting,
      LeaseTable leases,
      OutcomeReporter reporter,
      Duration grace) {
    this.workerId = workerId;
    this.poller = poller;
    this.releaseWaiting = releaseWaiting;
    this.leases = leases;
    this.reporter = reporter;
    this.grace = grace;
  }

  /** Ends the grace now, or makes a drain that has not begun skip it. */
  void skipGrace() {
    graceSkipped = true;
    leases.wakeWaiters();
  }

  /** Runs the drain on the calling thread; returns when no job is left running or unreleased. */
  void drain() {
    log.info(
        "worker {} shutting down: leasing stopped, {} jobs in flight, grace {} ms",
        workerId,
        leases.size(),
        graceSkipped ? 0 : grace.toMillis());
    poller.stop();
    try {
      poller.join(POLLER_JOIN);
      releaseWaiting.run();
      if (!leases.awaitEmpty(grace, () -> graceSkipped)) {
        log.info(
            "stopping {} running jobs ({}); they will be released",
            leases.size(),
            graceSkipped ? "grace skipped" : "grace over");
        leases.stopAll(CancellationReason.SHUTDOWN);
        if (!leases.awaitEmpty(RELEASE_WINDOW, () -> false)) {
          forceRelease(leases.snapshot());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      leases.stopAll(CancellationReason.SHUTDOWN);
      forceRelease(leases.snapshot());
    }
  }

  /** Releases jobs whose handlers ignored interruption; their outcome will be ignored. */
  private void forceRelease(List<HeldLease> stuck) {
    for (HeldLease lease : stuck) {
      if (lease.claimOutcome()) {
        log.warn("{}: handler ignored interruption; releasing the job anyway", lease);
        reporter.release(lease, "shutdown", false);
      }
    }
  }
}
