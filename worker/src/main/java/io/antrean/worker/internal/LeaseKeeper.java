package io.antrean.worker.internal;

import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.HeartbeatResponse;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseState;
import io.antrean.proto.v1.WorkerInfo;
import io.antrean.proto.v1.WorkerServiceGrpc.WorkerServiceStub;
import io.antrean.worker.CancellationReason;
import io.antrean.worker.Ticker;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this worker's leases alive: one Heartbeat per interval carries every held lease with its
 * latest progress note, and the per-lease answers extend the local deadline (EXTENDED), stop the
 * handler and drop the job (LOST), or stop it so that it is released as cancelled
 * (CANCEL_REQUESTED). A lease whose local deadline passes without a renewal, because the
 * coordinator could not be reached, is stopped as {@link CancellationReason#LEASE_EXPIRED}: by then
 * the coordinator may have given the job to another worker.
 *
 * <p>The local deadline of an extended lease is counted from the moment the heartbeat was sent, so
 * it never runs past the coordinator's expiry.
 *
 * <p>Each heartbeat asks the coordinator to hold its answer for one interval ({@code wait}; the
 * call's deadline is that plus the usual RPC timeout), so one heartbeat is always held and the next
 * one goes out when it returns: still one heartbeat per interval. A cancel of any job this worker
 * holds wakes the held call at once ({@code woken}), and the keeper then heartbeats again at once
 * to learn which job: a cancel arrives within about two round trips instead of at the next
 * interval, with no more heartbeats per job. A worker holding no lease heartbeats too (an empty
 * one), so that a job leased while it is held is covered from the start.
 *
 * <p>Threading: {@link #runOnce(long)} and the heartbeat answers must run on one thread, the {@code
 * callbacks} executor (a single-thread scheduler in production); the heartbeat itself is
 * asynchronous, so a slow coordinator never delays the deadline checks.
 */
final class LeaseKeeper {
  private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);
  private static final Duration RETRY_INITIAL = Duration.ofMillis(200);

  private final WorkerServiceStub stub;
  private final String workerId;
  private final WorkerInfo self;
  private final Duration leaseTtl;
  private final long intervalNanos;
  private final Duration rpcTimeout;
  private final Duration hold;
  private final Ticker ticker;
  private final LeaseTable leases;
  private final Executor callbacks;
  private final Backoff retry;

  private long nextBeatNanos;
  private boolean inFlight;

  LeaseKeeper(
      WorkerServiceStub stub,
      String workerId,
      WorkerInfo self,
      Duration leaseTtl,
      Duration interval,
      Ticker ticker,
      LeaseTable leases,
      Executor callbacks) {
    this.stub = stub;
    this.workerId = workerId;
    this.self = self;
    this.leaseTtl = leaseTtl;
    this.intervalNanos = interval.toNanos();
    this.rpcTimeout =
        interval.compareTo(Duration.ofSeconds(10)) > 0 ? Duration.ofSeconds(10) : interval;
    this.hold = interval;
    this.ticker = ticker;
    this.leases = leases;
    this.callbacks = callbacks;
    this.retry = new Backoff(min(RETRY_INITIAL, interval), interval);
    this.nextBeatNanos = ticker.nanos() + intervalNanos;
  }

  /** Stops overdue leases, then sends a heartbeat if one is due and none is in flight. */
  void runOnce(long nowNanos) {
    expireOverdue(nowNanos);
    if (!inFlight && nowNanos - nextBeatNanos >= 0) {
      beat(nowNanos);
    }
  }

  private void expireOverdue(long nowNanos) {
    for (HeldLease lease : leases.snapshot()) {
      if (lease.isOverdue(nowNanos) && lease.stop(CancellationReason.LEASE_EXPIRED)) {
        log.warn(
            "{} passed its local deadline without a renewal; stopping its handler and dropping it",
            lease);
      }
    }
  }

  private void beat(long sentNanos) {
    List<HeldLease> held = new ArrayList<>();
    HeartbeatRequest.Builder request =
        HeartbeatRequest.newBuilder()
            .setWorkerId(workerId)
            .setWorker(self)
            .setLeaseTtl(ProtoDurations.of(leaseTtl))
            .setWait(ProtoDurations.of(hold));
    for (HeldLease lease : leases.snapshot()) {
      if (!lease.isGone()) {
        held.add(lease);
        request.addLeases(
            LeaseRef.newBuilder()
                .setJobId(lease.jobId())
                .setFencingToken(lease.fencingToken())
                .setLeaseId(lease.leaseId())
                .setProgress(lease.progress()));
      }
    }
    // Sent even with no lease held: the held call is what a cancel of a job leased meanwhile wakes.
    inFlight = true;
    log.debug("heartbeat with {} leases", held.size());
    stub.withDeadlineAfter(hold.plus(rpcTimeout).toNanos(), TimeUnit.NANOSECONDS)
        .heartbeat(request.build(), new Answer(sentNanos));
  }

  private void applied(HeartbeatResponse response, long sentNanos) {
    inFlight = false;
    if (retry.failures() > 0) {
      log.info("heartbeats recovered after {} failures", retry.failures());
    }
    retry.reset();
    nextBeatNanos = sentNanos + intervalNanos;
    long extendedDeadline = sentNanos + leaseTtl.toNanos();
    for (LeaseState state : response.getLeasesList()) {
      HeldLease lease = leases.get(new LeaseKey(state.getJobId(), state.getFencingToken()));
      if (lease != null) {
        apply(lease, state, extendedDeadline);
      }
    }
    // Woken: one of this worker's jobs was asked to cancel, and the next heartbeat says which; a
    // held heartbeat that ran its wait is followed at once, not at the keeper's next tick, so one
    // is always held.
    long now = ticker.nanos();
    if (response.getWoken() || now - nextBeatNanos >= 0) {
      beat(now);
    }
  }

  private static void apply(HeldLease lease, LeaseState state, long extendedDeadline) {
    switch (state.getStatus()) {
      case LEASE_STATUS_EXTENDED -> lease.extendTo(extendedDeadline);
      case LEASE_STATUS_LOST -> {
        if (lease.stop(CancellationReason.LEASE_LOST)) {
          log.warn("{} lost, per the coordinator; stopping its handler", lease);
        }
      }
      case LEASE_STATUS_CANCEL_REQUESTED -> {
        lease.extendTo(extendedDeadline);
        if (lease.stop(CancellationReason.CANCEL_REQUESTED)) {
          log.info("{}: cancellation requested; stopping its handler", lease);
        }
      }
      default -> log.debug("{}: unexpected heartbeat status {}", lease, state.getStatus());
    }
  }

  private void failed(Throwable error, long sentNanos) {
    inFlight = false;
    Duration delay = retry.nextDelay();
    nextBeatNanos = sentNanos + delay.toNanos();
    if (retry.failures() == 1) {
      log.warn("heartbeat failed ({}); retrying with backoff", StatusText.of(error));
    } else {
      log.debug(
          "heartbeat failed {} times in a row, retrying in {}: {}",
          retry.failures(),
          delay,
          StatusText.of(error));
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** Hands the heartbeat's answer to the keeper's thread. */
  private final class Answer implements StreamObserver<HeartbeatResponse> {
    private final long sentNanos;

    Answer(long sentNanos) {
      this.sentNanos = sentNanos;
    }

    @Override
    public void onNext(HeartbeatResponse response) {
      hand(() -> applied(response, sentNanos));
    }

    @Override
    public void onError(Throwable error) {
      hand(() -> failed(error, sentNanos));
    }

    @Override
    public void onCompleted() {}

    private void hand(Runnable task) {
      try {
        callbacks.execute(task);
      } catch (RejectedExecutionException e) {
        log.debug("heartbeat answer arrived after the keeper stopped");
      }
    }
  }
}
