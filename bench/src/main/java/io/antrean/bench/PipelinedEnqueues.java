package io.antrean.bench;

import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.JobServiceGrpc;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Unary Enqueues through an asynchronous stub with at most a fixed number in flight: C calls in
 * flight cost no thread each, so the bench spends its CPU on calls rather than on switching
 * threads. Answers run on the transport's thread, so the callbacks given to {@link #send} must be
 * quick. The first failure is kept; {@link #awaitAll} rethrows it translated as the blocking client
 * would throw it.
 *
 * <p>One thread sends; answers may arrive on any.
 */
final class PipelinedEnqueues {
  // Beyond each call's deadline, how long an answer may take to reach its callback.
  private static final Duration CALLBACK_GRACE = Duration.ofSeconds(5);

  private final String label;
  private final int inFlight;
  private final Duration callTimeout;
  private final JobServiceGrpc.JobServiceStub stub;
  private final Semaphore permits;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /**
   * @param label the scenario, for messages
   * @param inFlight the most calls in flight at once
   */
  PipelinedEnqueues(BenchContext context, String label, int inFlight) {
    this.label = label;
    this.inFlight = inFlight;
    this.callTimeout = context.target().callTimeout();
    this.stub =
        JobServiceGrpc.newStub(context.target().producerChannel()).withExecutor(Runnable::run);
    this.permits = new Semaphore(inFlight);
  }

  /**
   * Sends one Enqueue once a call in flight has ended, if all are taken.
   *
   * @param answered run on the transport's thread when the call is answered OK
   * @return false, sending nothing, once a call has failed
   */
  boolean send(EnqueueRequest request, Runnable answered) throws InterruptedException {
    if (!permits.tryAcquire(callTimeout.plus(CALLBACK_GRACE).toNanos(), TimeUnit.NANOSECONDS)) {
      throw new BenchFailedException(label + ": calls did not end within their deadline");
    }
    if (failed()) {
      permits.release();
      return false;
    }
    stub.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS)
        .enqueue(
            request,
            new StreamObserver<EnqueueResponse>() {
              @Override
              public void onNext(EnqueueResponse response) {
                answered.run();
              }

              @Override
              public void onError(Throwable t) {
                failure.compareAndSet(null, t);
                permits.release();
              }

              @Override
              public void onCompleted() {
                permits.release();
              }
            });
    return true;
  }

  /** Whether a call has failed. */
  boolean failed() {
    return failure.get() != null;
  }

  /**
   * Waits up to {@code bound} for every call in flight to end, then rethrows the first failure as
   * the blocking client would throw it.
   */
  void awaitAll(Duration bound) throws InterruptedException {
    if (!permits.tryAcquire(inFlight, bound.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new BenchFailedException(label + ": calls did not end within their deadline");
    }
    permits.release(inFlight);
    if (failed()) {
      throw FailureReplay.translate(failure.get());
    }
  }

  /** The bound for {@link #awaitAll} when nothing else limits it: one call's deadline and grace. */
  Duration oneCallBound() {
    return callTimeout.plus(CALLBACK_GRACE);
  }
}
