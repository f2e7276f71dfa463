package io.antrean.worker.internal;

import io.antrean.proto.WorkerCallLimits;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.worker.CancellationReason;
import io.antrean.worker.ErrorClassifier;
import io.antrean.worker.JobHandler;
import io.antrean.worker.ResultTooLargeException;
import io.antrean.worker.RetryableException;
import io.antrean.worker.Ticker;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one leased job on a handler thread and reports how it ended. Nothing the handler throws
 * escapes: a normal return completes the job (through the {@link CompletionQueue}), an exception is
 * classified and fails it, and a job stopped while it ran is released or dropped as its {@link
 * CancellationReason} says. A result longer than a coordinator stores fails the job as well, with a
 * {@link ResultTooLargeException}. The job's lease and slot are given back once the outcome has
 * been answered: here for Fail and Release, by the completion queue for a completion.
 *
 * <p>Thread-safe: one instance serves every handler thread.
 */
final class JobRunner {
  private static final Logger log = LoggerFactory.getLogger(JobRunner.class);

  private final Map<String, JobHandler> handlers;
  private final ErrorClassifier classifier;
  private final OutcomeReporter reporter;
  private final CompletionQueue completions;
  private final JobSettler settler;
  private final HandlerTracing tracing;
  private final Ticker ticker;
  private final Prefetch prefetch;

  JobRunner(
      Map<String, JobHandler> handlers,
      ErrorClassifier classifier,
      OutcomeReporter reporter,
      CompletionQueue completions,
      JobSettler settler,
      HandlerTracing tracing,
      Ticker ticker,
      Prefetch prefetch) {
    this.handlers = Map.copyOf(handlers);
    this.classifier = classifier;
    this.reporter = reporter;
    this.completions = completions;
    this.settler = settler;
    this.tracing = tracing;
    this.ticker = ticker;
    this.prefetch = prefetch;
  }

  /**
   * Runs the job of {@code lease} on the calling thread and reports it. A failure or release is
   * answered before this returns and the job settled here; a completion is handed to the completion
   * queue, which settles the job once it is answered.
   */
  void run(HeldLease lease, LeasedJobContext context) {
    boolean handedOver = false;
    try {
      Outcome outcome = invoke(lease, context);
      long elapsedMillis = outcome.nanos() / 1_000_000;
      if (!lease.claimOutcome()) {
        return;
      }
      if (outcome.succeeded()) {
        // The queue settles the job from here on, even should complete() throw.
        handedOver = true;
        if (log.isDebugEnabled()) {
          log.debug("{} succeeded in {} ms", context, elapsedMillis);
        }
        completions.complete(lease, outcome.result(), context.resultContentType());
      } else {
        report(lease, context, outcome, elapsedMillis);
      }
    } finally {
      if (!handedOver) {
        settler.settle(lease);
      }
    }
  }

  /**
   * What the handler did, how long it ran (0 if it never started), and why it was stopped if it
   * was.
   */
  private record Outcome(
      byte[] result, Throwable error, CancellationReason stopReason, long nanos) {
    boolean succeeded() {
      return error == null && stopReason == null;
    }
  }

  private Outcome invoke(HeldLease lease, LeasedJobContext context) {
    JobHandler handler = handlers.get(context.type());
    if (!lease.beginHandler(Thread.currentThread())) {
      return new Outcome(null, null, lease.endHandler(), 0);
    }
    byte[] result = null;
    Throwable error = null;
    Span span = tracing.start(lease.job());
    long startNanos = ticker.nanos();
    try (Scope ignored = span == null ? Scope.noop() : span.makeCurrent()) {
      if (handler == null) {
        // Another worker may know the type; let the job's retry budget decide.
        throw new RetryableException("worker has no handler for job type " + context.type());
      }
      result = handler.handle(context);
      if (result != null && result.length > WorkerCallLimits.MAX_RESULT_BYTES) {
        // The coordinator would refuse it, and with it the batch it went in: fail the job instead.
        throw new ResultTooLargeException(result.length);
      }
    } catch (Throwable t) {
      // A handler's failure, Errors included, is the job's outcome, never an uncaught exception.
      // An InterruptedException lands here too; endHandler() clears the interrupt, because the
      // thread goes on to report and serve other jobs.
      error = t;
    }
    long nanos = ticker.nanos() - startNanos;
    prefetch.handlerRan(nanos);
    if (span != null) {
      HandlerTracing.end(span, error);
    }
    return new Outcome(result, error, lease.endHandler(), nanos);
  }

  /** Reports an outcome other than success: releases, drops or fails the job. */
  private void report(
      HeldLease lease, LeasedJobContext context, Outcome outcome, long elapsedMillis) {
    CancellationReason reason = outcome.stopReason();
    if (reason == null) {
      reportFailure(lease, context, outcome.error(), elapsedMillis);
      return;
    }
    switch (reason) {
      case CANCEL_REQUESTED -> {
        log.info("{} cancelled after {} ms; releasing it", context, elapsedMillis);
        reporter.release(lease, "cancelled", true);
      }
      case SHUTDOWN -> {
        log.info("{} stopped by shutdown after {} ms; releasing it", context, elapsedMillis);
        reporter.release(lease, "shutdown", true);
      }
      case LEASE_LOST, LEASE_EXPIRED ->
          log.warn(
              "{} dropped after {} ms ({}); its outcome is not reported",
              context,
              elapsedMillis,
              reason);
    }
  }

  private void reportFailure(
      HeldLease lease, LeasedJobContext context, Throwable error, long elapsedMillis) {
    FailureReport failure = FailureReport.of(error, classifier);
    if (failure.kind() == ErrorKind.ERROR_KIND_PERMANENT) {
      log.warn(
          "{} failed permanently after {} ms: {}: {}",
          context,
          elapsedMillis,
          failure.errorType(),
          failure.message());
    } else {
      log.info(
          "{} failed (retryable) after {} ms: {}: {}",
          context,
          elapsedMillis,
          failure.errorType(),
          failure.message());
    }
    reporter.fail(lease, failure);
  }
}
