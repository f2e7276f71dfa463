package io.antrean.worker.internal;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.ReleaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc.WorkerServiceBlockingStub;
import io.antrean.worker.Ticker;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends Complete, Fail and Release for held leases, on the calling thread; {@link
 * CompleteBatchSender} follows the same rules for CompleteBatch.
 *
 * <p>Retry rules: {@code FAILED_PRECONDITION} (the lease is lost) and {@code NOT_FOUND} are logged
 * at WARN and never retried. {@code UNAVAILABLE} and {@code DEADLINE_EXCEEDED} are retried with
 * backoff for as long as the local lease deadline allows (the coordinator keeps the lease alive
 * through heartbeats meanwhile), unless the lease is lost or the reporter is {@linkplain #abandon()
 * abandoned}. Each call's deadline is the RPC timeout or the lease time left, whichever is shorter.
 *
 * <p>Thread-safe.
 */
final class OutcomeReporter {
  private static final Logger log = LoggerFactory.getLogger(OutcomeReporter.class);
  static final Duration RETRY_INITIAL = Duration.ofMillis(100);
  static final Duration RETRY_MAX = Duration.ofSeconds(2);

  /** The shortest deadline a call gets, however little of the lease is left. */
  static final long MIN_CALL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final WorkerServiceBlockingStub stub;
  private final String workerId;
  private final Ticker ticker;
  private final Duration rpcTimeout;
  private final CountDownLatch abandoned = new CountDownLatch(1);

  OutcomeReporter(
      WorkerServiceBlockingStub stub, String workerId, Ticker ticker, Duration rpcTimeout) {
    this.stub = stub;
    this.workerId = workerId;
    this.ticker = ticker;
    this.rpcTimeout = rpcTimeout;
  }

  /** The CompleteBatch item, and the fields of a Complete, that report {@code result}. */
  static CompleteItem completion(HeldLease lease, byte[] result, String resultContentType) {
    return CompleteItem.newBuilder()
        .setJobId(lease.jobId())
        .setFencingToken(lease.fencingToken())
        .setLeaseId(lease.leaseId())
        .setResult(result == null ? ByteString.EMPTY : ByteString.copyFrom(result))
        .setResultContentType(resultContentType)
        .build();
  }

  /**
   * Completes the job with one unary Complete carrying {@code item}; returns whether the
   * coordinator accepted it.
   */
  boolean complete(HeldLease lease, CompleteItem item) {
    CompleteRequest request =
        CompleteRequest.newBuilder()
            .setJobId(item.getJobId())
            .setFencingToken(item.getFencingToken())
            .setLeaseId(item.getLeaseId())
            .setWorkerId(workerId)
            .setResult(item.getResult())
            .setResultContentType(item.getResultContentType())
            .build();
    return send(lease, "Complete", true, s -> s.complete(request));
  }

  /** Fails the attempt as {@code report} says; returns whether the coordinator accepted it. */
  boolean fail(HeldLease lease, FailureReport report) {
    FailRequest.Builder request =
        FailRequest.newBuilder()
            .setJobId(lease.jobId())
            .setFencingToken(lease.fencingToken())
            .setLeaseId(lease.leaseId())
            .setWorkerId(workerId)
            .setKind(report.kind())
            .setErrorType(report.errorType())
            .setErrorMessage(report.message())
            .setStackTrace(report.stackTrace());
    if (report.retryAfter() != null) {
      request.setRetryAfter(ProtoDurations.of(report.retryAfter()));
    }
    FailRequest built = request.build();
    return send(lease, "Fail", true, s -> s.fail(built));
  }

  /**
   * Hands the job back without spending an attempt.
   *
   * @param retry whether to retry an unreachable coordinator (false during a forced shutdown)
   */
  boolean release(HeldLease lease, String reason, boolean retry) {
    ReleaseRequest request =
        ReleaseRequest.newBuilder()
            .setJobId(lease.jobId())
            .setFencingToken(lease.fencingToken())
            .setLeaseId(lease.leaseId())
            .setWorkerId(workerId)
            .setReason(reason)
            .build();
    return send(lease, "Release", retry, s -> s.release(request));
  }

  /** Stops every retry in progress and every later one; used when the worker terminates. */
  void abandon() {
    abandoned.countDown();
  }

  private boolean send(
      HeldLease lease, String rpc, boolean retry, Consumer<WorkerServiceBlockingStub> call) {
    Backoff backoff = new Backoff(RETRY_INITIAL, RETRY_MAX);
    while (true) {
      long remaining = lease.remainingNanos(ticker.nanos());
      if (remaining <= 0 || lease.isGone()) {
        log.warn(
            "{} of job {} not sent: the lease is gone or past its deadline", rpc, lease.jobId());
        return false;
      }
      long timeout = Math.max(MIN_CALL_NANOS, Math.min(rpcTimeout.toNanos(), remaining));
      try {
        call.accept(stub.withDeadlineAfter(timeout, TimeUnit.NANOSECONDS));
        log.debug("{} of job {} (token {}) accepted", rpc, lease.jobId(), lease.fencingToken());
        return true;
      } catch (StatusRuntimeException e) {
        if (!retry || !isRetryable(e)) {
          logRejected(rpc, lease, e.getStatus());
          return false;
        }
        Duration delay = OverloadHint.delay(backoff, e);
        log.debug(
            "{} of job {} failed ({}), retrying in {}",
            rpc,
            lease.jobId(),
            StatusText.of(e.getStatus()),
            delay);
        if (!pause(delay)) {
          log.warn(
              "{} of job {} abandoned while the coordinator was unreachable", rpc, lease.jobId());
          return false;
        }
      }
    }
  }

  /**
   * Whether a call that failed with {@code e} may be sent again: the coordinator was unreachable,
   * too slow, or refused it as overloaded (it then did nothing).
   */
  static boolean isRetryable(StatusRuntimeException e) {
    Status.Code code = e.getStatus().getCode();
    return code == Status.Code.UNAVAILABLE
        || code == Status.Code.DEADLINE_EXCEEDED
        || OverloadHint.isOverloaded(e);
  }

  /** Logs a report of {@code rpc} that the coordinator refused, or that failed for good. */
  static void logRejected(String rpc, HeldLease lease, Status status) {
    if (status.getCode() == Status.Code.FAILED_PRECONDITION) {
      log.warn(
          "{} of job {} rejected, lease lost (token {}): {}",
          rpc,
          lease.jobId(),
          lease.fencingToken(),
          status.getDescription());
    } else {
      log.warn("{} of job {} failed: {}", rpc, lease.jobId(), StatusText.of(status));
    }
  }

  /** Waits {@code delay}; false if the reporter was abandoned or the thread interrupted. */
  boolean pause(Duration delay) {
    try {
      return !abandoned.await(delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
