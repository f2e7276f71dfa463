package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.worker.Ticker;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Lease long-poll of the {@link LeasePoller}, holding {@code held} handler slots. The answer is
 * taken on the thread that delivers it (the transport's, with a direct executor): up to {@code
 * held} jobs go to the dispatcher at once, and the slots of jobs not leased are given back. The
 * poll loop's thread meanwhile waits in {@link #await()} for the call to end.
 *
 * <p>The slots are accounted for exactly once: by the answer, or by the loop when the call ended
 * without one or was given up ({@link #releaseSlotsUnlessAnswered()}). An answer that arrives after
 * the loop gave up is dropped, as a blocking call's would be: its jobs come back to the queue when
 * their leases expire.
 *
 * <p>Thread-safe: the answer's thread and the loop's thread share it.
 */
final class LeaseCall implements ClientResponseObserver<LeaseRequest, LeaseResponse> {
  private static final Logger log = LoggerFactory.getLogger(LeaseCall.class);

  private final int held;
  private final SlotPool slots;
  private final LeasePoller.Dispatcher dispatcher;
  private final Ticker ticker;
  private final AtomicBoolean slotsClaimed = new AtomicBoolean();
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile ClientCallStreamObserver<LeaseRequest> call;
  // Written before ended counts down, read after it did.
  private int jobsReceived;
  private Throwable error;
  private RuntimeException bug;

  LeaseCall(int held, SlotPool slots, LeasePoller.Dispatcher dispatcher, Ticker ticker) {
    this.held = held;
    this.slots = slots;
    this.dispatcher = dispatcher;
    this.ticker = ticker;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<LeaseRequest> requestStream) {
    this.call = requestStream;
  }

  @Override
  public void onNext(LeaseResponse response) {
    if (!slotsClaimed.compareAndSet(false, true)) {
      return;
    }
    long receivedNanos = ticker.nanos();
    List<Job> jobs = response.getJobsList();
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
    ended.countDown();
  }

  @Override
  public void onCompleted() {
    ended.countDown();
  }

  /**
   * Waits for the call to end. If interrupted, cancels the call first.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  void await() throws InterruptedException {
    try {
      ended.await();
    } catch (InterruptedException e) {
      ClientCallStreamObserver<LeaseRequest> started = call;
      if (started != null) {
        started.cancel("worker stopping", null);
      }
      throw e;
    }
  }

  /** Gives the slots back unless the answer took them; call once the call is over or abandoned. */
  void releaseSlotsUnlessAnswered() {
    if (slotsClaimed.compareAndSet(false, true)) {
      slots.release(held);
    }
  }

  /** How many jobs the answer carried; valid after {@link #await()}. */
  int jobsReceived() {
    return jobsReceived;
  }

  /** The call's failure, or null if it succeeded; valid after {@link #await()}. */
  @Nullable
  StatusRuntimeException failure() {
    if (error == null) {
      return null;
    }
    return error instanceof StatusRuntimeException e
        ? e
        : Status.fromThrowable(error).asRuntimeException();
  }

  /** What the dispatcher threw, or null; valid after {@link #await()}. */
  @Nullable
  RuntimeException bug() {
    return bug;
  }
}
