package io.antrean.bench;

import io.antrean.client.AntreanException;
import io.antrean.proto.RequestErrors;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Enqueues as the messages of one Produce stream, with at most a fixed number unanswered: C
 * requests in flight cost no thread each, so the bench spends its CPU on requests rather than on
 * switching threads, and a message costs both ends less than a call (the Java client's own path).
 * Answers run on the transport's thread, so the callbacks given to {@link #send} must be quick. The
 * first failure (an answer in error, or the stream's end) is kept; {@link #awaitAll} rethrows it as
 * the client would throw it. {@link #awaitAll} also ends the stream.
 *
 * <p>One thread sends; answers may arrive on any.
 */
final class PipelinedEnqueues implements StreamObserver<ProduceResponse> {
  // Beyond each request's timeout, how long an answer may take to reach its callback.
  private static final Duration CALLBACK_GRACE = Duration.ofSeconds(5);

  private final String label;
  private final int inFlight;
  private final Duration callTimeout;
  private final Semaphore permits;
  private final Map<Long, Runnable> unanswered = new ConcurrentHashMap<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final StreamObserver<ProduceRequest> requests;
  private long lastId;

  /**
   * @param label the scenario, for messages
   * @param inFlight the most requests unanswered at once
   */
  PipelinedEnqueues(BenchContext context, String label, int inFlight) {
    this.label = label;
    this.inFlight = inFlight;
    this.callTimeout = context.target().callTimeout();
    this.permits = new Semaphore(inFlight);
    this.requests =
        JobServiceGrpc.newStub(context.target().producerChannel())
            .withExecutor(Runnable::run)
            .produce(this);
  }

  /**
   * Sends one Enqueue once a request in flight has been answered, if all are taken.
   *
   * @param answered run on the transport's thread when the request is answered OK
   * @return false, sending nothing, once a request has failed
   */
  boolean send(EnqueueRequest request, Runnable answered) throws InterruptedException {
    if (!permits.tryAcquire(callTimeout.plus(CALLBACK_GRACE).toNanos(), TimeUnit.NANOSECONDS)) {
      throw new BenchFailedException(label + ": Enqueues unanswered within their deadline");
    }
    if (failed()) {
      permits.release();
      return false;
    }
    long id = ++lastId;
    unanswered.put(id, answered);
    requests.onNext(ProduceRequest.newBuilder().setRequestId(id).setEnqueue(request).build());
    return true;
  }

  @Override
  public void onNext(ProduceResponse response) {
    Runnable answered = unanswered.remove(response.getRequestId());
    if (answered == null) {
      return;
    }
    if (response.hasError()) {
      failure.compareAndSet(null, RequestErrors.toException(response.getError()));
    } else {
      answered.run();
    }
    permits.release();
  }

  @Override
  public void onError(Throwable t) {
    failure.compareAndSet(null, t);
    for (Long id : unanswered.keySet()) {
      if (unanswered.remove(id) != null) {
        permits.release();
      }
    }
  }

  @Override
  public void onCompleted() {}

  /** Whether a request has failed. */
  boolean failed() {
    return failure.get() != null;
  }

  /**
   * Waits up to {@code bound} for every request in flight to be answered, ends the stream, then
   * rethrows the first failure as the client would throw it.
   */
  void awaitAll(Duration bound) throws InterruptedException {
    if (!permits.tryAcquire(inFlight, bound.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new BenchFailedException(label + ": Enqueues unanswered within their deadline");
    }
    permits.release(inFlight);
    if (!failed()) {
      requests.onCompleted();
    }
    if (failed()) {
      throw AntreanException.of(failure.get());
    }
  }

  /**
   * The bound for {@link #awaitAll} when nothing else limits it: one request's timeout and grace.
   */
  Duration oneCallBound() {
    return callTimeout.plus(CALLBACK_GRACE);
  }
}
