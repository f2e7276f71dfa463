package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.worker.Ticker;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Lease long-poll of the {@link LeasePoller}, holding {@code held} handler slots. The answer is
 * taken on the thread that delivers it (the transport's, with a direct executor): up to {@code
 * held} jobs go to the dispatcher at once, and the slots of jobs not leased are given back. When
 * the call has ended, however it ended, its slots are accounted for and the end callback runs, on
 * the same thread.
 *
 * <p>The slots are accounted for exactly once: by the answer, or at the end of a call that had none
 * ({@link #releaseSlotsUnlessAnswered()}). An answer that arrives after that is dropped, as a
 * cancelled blocking call's would be: its jobs come back to the queue when their leases expire.
 *
 * <p>Thread-safe: the answer's thread and the loop's thread share it.
 */
final class LeaseCall implements WorkStreamClient.LeaseObserver {
  private static final Logger log = LoggerFactory.getLogger(LeaseCall.class);

  private final int held;
  private final SlotPool slots;
  private final LeasePoller.Dispatcher dispatcher;
  private final Ticker ticker;
  private final Consumer<LeaseCall> onEnd;
  private final long sentNanos = System.nanoTime();
  private final AtomicBoolean slotsClaimed = new AtomicBoolean();
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile Runnable canceller;
  private volatile boolean cancelled;
  // Written before the end callback runs, read by it or after it (through its hand-off).
  private volatile boolean answered;
  private volatile int jobsReceived;
  private volatile Throwable error;
  private volatile RuntimeException bug;

  /**
   * @param held the slots this call holds and asks jobs for
   * @param onEnd runs once when the call has ended, after its slots are accounted for
   */
  LeaseCall(
      int held,
      SlotPool slots,
      LeasePoller.Dispatcher dispatcher,
      Ticker ticker,
      Consumer<LeaseCall> onEnd) {
    this.held = held;
    this.slots = slots;
    this.dispatcher = dispatcher;
    this.ticker = ticker;
    this.onEnd = onEnd;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<LeaseRequest> requestStream) {
    started(() -> requestStream.cancel("worker stopping", null));
  }

  @Override
  public void started(Runnable cancel) {
    this.canceller = cancel;
    if (cancelled) {
      cancel.run();
    }
  }

  @Override
  public void onNext(LeaseResponse response) {
    if (!slotsClaimed.compareAndSet(false, true)) {
      return;
    }
    long receivedNanos = ticker.nanos();
    List<Job> jobs = response.getJobsList();
    answered = true;
    jobsReceived = jobs.size();
    int accepted = Math.min(jobs.size(), held);
    slots.release(held - accepted);
    try {
      for (int i = 0; i < accepted; i++) {
        dispatcher.dispatch(jobs.get(i), receivedNanos);
      }
    } catch (RuntimeException e) {
      // A bug in the worker itself: the loop's thread reports it, as it would its own.
      bug = e;
    }
    if (jobs.size() > held) {
      log.error(
          "coordinator sent {} jobs for max_jobs {}; ignoring the extra ones until they expire",
          jobs.size(),
          held);
    }
  }

  @Override
  public void onError(Throwable t) {
    error = t;
    end();
  }

  @Override
  public void onCompleted() {
    end();
  }

  /** Ends a call that could not be started: {@code e} is a bug in the worker, not a failure. */
  void startFailed(RuntimeException e) {
    bug = e;
    end();
  }

  private void end() {
    if (ended.compareAndSet(false, true)) {
      releaseSlotsUnlessAnswered();
      onEnd.accept(this);
    }
  }

  /**
   * Cancels the call; it then ends with CANCELLED unless it has ended already.
   *
   * <p>Never throws. A cancel that races the call's start on the transport's thread can throw out
   * of grpc-java (seen with the in-process transport, and reported for retriable calls); the call
   * then runs to its own deadline, and jobs its answer brings reach the dispatcher, which hands
   * them back while the worker stops.
   */
  void cancel() {
    cancelled = true;
    Runnable started = canceller;
    if (started == null) {
      return;
    }
    try {
      started.run();
    } catch (RuntimeException e) {
      log.debug("cancelling a Lease call in flight failed; it ends by its deadline", e);
    }
  }

  /** Gives the slots back unless the answer took them. */
  void releaseSlotsUnlessAnswered() {
    if (slotsClaimed.compareAndSet(false, true)) {
      slots.release(held);
    }
  }

  /** When the call was made, on {@link System#nanoTime()}. */
  long sentNanos() {
    return sentNanos;
  }

  /** Whether an answer was taken (its jobs dispatched). */
  boolean answered() {
    return answered;
  }

  /** How many jobs the answer carried; valid once the call has ended. */
  int jobsReceived() {
    return jobsReceived;
  }

  /** The call's failure, or null if it succeeded; valid once the call has ended. */
  @Nullable
  StatusRuntimeException failure() {
    if (error == null) {
      return null;
    }
    return error instanceof StatusRuntimeException e
        ? e
        : Status.fromThrowable(error).asRuntimeException();
  }

  /** What the dispatcher threw, or null; valid once the call has ended. */
  @Nullable
  RuntimeException bug() {
    return bug;
  }
}
