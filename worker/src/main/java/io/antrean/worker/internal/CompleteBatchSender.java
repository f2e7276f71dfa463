package io.antrean.worker.internal;

import io.antrean.proto.WorkerCallLimits;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteOutcome;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.worker.Ticker;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one CompleteBatch and judges its answer item by item, by the rules {@link OutcomeReporter}
 * applies to a unary Complete. COMPLETED is accepted. LEASE_LOST and NOT_FOUND are logged exactly
 * like Complete's {@code FAILED_PRECONDITION} and {@code NOT_FOUND} and never retried. {@code
 * UNAVAILABLE} and {@code DEADLINE_EXCEEDED} send the same items again with backoff, less those
 * whose lease has gone or passed its local deadline meanwhile, until none is left or the reporter
 * is {@linkplain OutcomeReporter#abandon() abandoned}; a retry never adds items, so no request
 * carries a job twice. Any other error is logged and not retried. {@code UNIMPLEMENTED} (a
 * coordinator older than CompleteBatch) hands the items back, to be sent with unary Complete.
 *
 * <p>Each call's deadline is the RPC timeout or the longest lease time left among its items,
 * whichever is shorter: the coordinator judges each item by its fencing token, so an item whose
 * lease ran out meanwhile is answered LEASE_LOST rather than holding the others back.
 *
 * <p>Not thread-safe: {@link CompletionQueue}'s sending thread is its only user.
 */
final class CompleteBatchSender {
  private static final Logger log = LoggerFactory.getLogger(CompleteBatchSender.class);

  /**
   * The result bytes at which a CompleteBatch takes no more items. Each result is at most {@link
   * WorkerCallLimits#MAX_RESULT_BYTES}, so a call's results stay under 3 MiB, inside the 4 MiB a
   * coordinator reads by default: a call past it would be refused whole, every job of it left to
   * run again once its lease expired.
   */
  static final long BATCH_RESULT_BYTES = 2L << 20;

  private static final Status LEASE_LOST =
      Status.FAILED_PRECONDITION.withDescription("LEASE_LOST (CompleteBatch item)");
  private static final Status NOT_FOUND =
      Status.NOT_FOUND.withDescription("no such job (CompleteBatch item)");

  private final WorkStreamClient work;
  private final String workerId;
  private final Ticker ticker;
  private final Duration rpcTimeout;
  private final OutcomeReporter reporter;

  CompleteBatchSender(
      WorkStreamClient work,
      String workerId,
      Ticker ticker,
      Duration rpcTimeout,
      OutcomeReporter reporter) {
    this.work = work;
    this.workerId = workerId;
    this.ticker = ticker;
    this.rpcTimeout = rpcTimeout;
    this.reporter = reporter;
  }

  /**
   * What became of a batch.
   *
   * @param forUnary the completions to send with unary Complete because the coordinator does not
   *     implement CompleteBatch; empty otherwise
   * @param leased the jobs the answer leased for {@code lease_next}; empty without one
   * @param receivedNanos the ticker's reading when the answer arrived
   * @param roundTripNanos how long the call that was answered took, or 0 if none was
   */
  record Sent(
      List<PendingCompletion> forUnary, List<Job> leased, long receivedNanos, long roundTripNanos) {
    static final Sent NOTHING = new Sent(List.of(), List.of(), 0, 0);

    /** Items to complete with unary Complete instead. */
    static Sent forUnary(List<PendingCompletion> items) {
      return new Sent(items, List.of(), 0, 0);
    }
  }

  /**
   * Sends {@code batch} until it is answered or given up; the caller settles every job of it
   * afterwards, whatever happened.
   *
   * @param batch 1 to {@value WorkerCallLimits#MAX_COMPLETE_BATCH_ITEMS} completions of distinct
   *     jobs
   * @param leaseNext the lease to ask for in the same call ({@link SlotRefill}), or null
   */
  Sent send(List<PendingCompletion> batch, @Nullable LeaseRequest leaseNext) {
    Backoff backoff = new Backoff(OutcomeReporter.RETRY_INITIAL, OutcomeReporter.RETRY_MAX);
    List<PendingCompletion> items = batch;
    while (true) {
      items = stillHeld(items);
      if (items.isEmpty()) {
        return Sent.NOTHING;
      }
      try {
        long sentNanos = ticker.nanos();
        CompleteBatchResponse response = call(items, leaseNext);
        long receivedNanos = ticker.nanos();
        judge(items, response);
        return new Sent(
            List.of(), response.getLeasedJobsList(), receivedNanos, receivedNanos - sentNanos);
      } catch (StatusRuntimeException e) {
        Status status = e.getStatus();
        if (status.getCode() == Status.Code.UNIMPLEMENTED) {
          return Sent.forUnary(items);
        }
        if (!OutcomeReporter.isRetryable(e)) {
          log.warn(
              "CompleteBatch of {} jobs (first job {}) failed, not retried: {}",
              items.size(),
              items.get(0).lease().jobId(),
              StatusText.of(status));
          return Sent.NOTHING;
        }
        Duration delay = OverloadHint.delay(backoff, e);
        log.debug(
            "CompleteBatch of {} jobs failed ({}), retrying in {}",
            items.size(),
            StatusText.of(status),
            delay);
        if (!reporter.pause(delay)) {
          log.warn(
              "CompleteBatch of {} jobs (first job {}) abandoned while the coordinator was"
                  + " unreachable",
              items.size(),
              items.get(0).lease().jobId());
          return Sent.NOTHING;
        }
      }
    }
  }

  /** The items still worth sending; logs the others as a unary Complete would. */
  private List<PendingCompletion> stillHeld(List<PendingCompletion> items) {
    long now = ticker.nanos();
    List<PendingCompletion> held = new ArrayList<>(items.size());
    for (PendingCompletion item : items) {
      HeldLease lease = item.lease();
      if (lease.isGone() || lease.remainingNanos(now) <= 0) {
        log.warn(
            "Complete of job {} not sent: the lease is gone or past its deadline", lease.jobId());
      } else {
        held.add(item);
      }
    }
    return held.size() == items.size() ? items : held;
  }

  private CompleteBatchResponse call(
      List<PendingCompletion> items, @Nullable LeaseRequest leaseNext) {
    long now = ticker.nanos();
    long longestRemaining = 0;
    CompleteBatchRequest.Builder request = CompleteBatchRequest.newBuilder().setWorkerId(workerId);
    if (leaseNext != null) {
      request.setLeaseNext(leaseNext);
    }
    for (PendingCompletion item : items) {
      longestRemaining = Math.max(longestRemaining, item.lease().remainingNanos(now));
      request.addItems(item.item());
    }
    long timeout =
        Math.max(OutcomeReporter.MIN_CALL_NANOS, Math.min(rpcTimeout.toNanos(), longestRemaining));
    log.debug("sending CompleteBatch of {} jobs", items.size());
    return work.completeBatch(request.build(), timeout);
  }

  private static void judge(List<PendingCompletion> items, CompleteBatchResponse response) {
    if (response.getOutcomesCount() != items.size()) {
      log.error(
          "CompleteBatch of {} jobs answered with {} outcomes; a job without its outcome is not"
              + " retried",
          items.size(),
          response.getOutcomesCount());
    }
    int completed = 0;
    for (int i = 0; i < items.size(); i++) {
      HeldLease lease = items.get(i).lease();
      CompleteOutcome outcome = i < response.getOutcomesCount() ? response.getOutcomes(i) : null;
      if (outcome == null || outcome.getJobId() != lease.jobId()) {
        log.warn("Complete of job {} got no outcome in its CompleteBatch answer", lease.jobId());
        continue;
      }
      switch (outcome.getStatus()) {
        case COMPLETE_STATUS_COMPLETED -> completed++;
        case COMPLETE_STATUS_LEASE_LOST ->
            OutcomeReporter.logRejected("Complete", lease, LEASE_LOST);
        case COMPLETE_STATUS_NOT_FOUND -> OutcomeReporter.logRejected("Complete", lease, NOT_FOUND);
        default ->
            log.warn(
                "Complete of job {} got unknown CompleteBatch status {}; not retried",
                lease.jobId(),
                outcome.getStatusValue());
      }
    }
    log.debug("CompleteBatch of {} jobs answered: {} completed", items.size(), completed);
  }
}
