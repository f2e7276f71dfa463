package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.worker.Ticker;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll loop: take every free slot, long-poll Lease for that many jobs of the handled types,
 * repeat. The answer is taken on the transport thread that reads it, which hands each job to the
 * dispatcher there and then and, while jobs keep coming and slots are free, sends the next Lease
 * itself. The loop's own thread only comes in when that chain of calls ends: it waits for a free
 * slot, backs off after an error (exponentially with jitter; a success resets the backoff) or pads
 * an empty answer, and starts the next chain. {@link #stop()} ends the loop at once, cancelling a
 * long poll in flight.
 *
 * <p>Why the transport thread: on a busy machine every thread that must be woken in series between
 * the Lease answer and the handler adds a wait in the scheduler's run queue to the job's start, and
 * a blocking call would wake the loop's thread only for it to wake a handler thread and to send the
 * next Lease, during which this worker has no long-poll waiting at the coordinator. The dispatcher
 * must therefore never block.
 *
 * <p>Thread-safe: {@link #start()}, {@link #stop()} and {@link #join(Duration)} may be called from
 * any thread.
 */
final class LeasePoller implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(LeasePoller.class);

  /** The protocol's ceiling for max_jobs. */
  static final int MAX_JOBS_PER_LEASE = 256;

  /**
   * An empty answer faster than this is padded to it, so a coordinator that does not hold long
   * polls (or a zero wait) cannot turn the loop into a busy spin.
   */
  private static final long MIN_EMPTY_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** Added to the long-poll wait to form the Lease deadline. */
  private static final Duration LEASE_DEADLINE_MARGIN = Duration.ofSeconds(10);

  /**
   * Takes ownership of one leased job, with the ticker reading taken when it arrived. Called on the
   * thread that delivered the Lease answer; must not block.
   */
  interface Dispatcher {
    void dispatch(Job job, long receivedNanos);
  }

  private final WorkStreamClient work;
  private final LeaseRequest template;
  private final Duration wait;
  private final SlotPool slots;
  private final Dispatcher dispatcher;
  private final Ticker ticker;
  private final Backoff backoff;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile Turn currentTurn;

  /**
   * The Lease calls of one turn of the loop: the first sent by the loop's thread, each next one by
   * the answer of the one before. The turn is over when a call ends without sending another.
   */
  private static final class Turn {
    private final CountDownLatch over = new CountDownLatch(1);
    private volatile LeaseCall current;
    private volatile boolean answered;
    private volatile LeaseCall last;
    // The thread inside send(), so an answer delivered within the sending call does not recurse.
    private volatile Thread sending;

    void cancel() {
      LeaseCall call = current;
      if (call != null) {
        call.cancel();
      }
    }
  }

  LeasePoller(
      WorkStreamClient work,
      LeaseRequest template,
      SlotPool slots,
      Dispatcher dispatcher,
      Ticker ticker,
      Backoff backoff,
      ThreadFactory threads) {
    // WorkStreamClient delivers the answer where it is read: no hand-off before the dispatcher.
    this.work = work;
    this.template = template;
    this.wait = Duration.ofSeconds(template.getWait().getSeconds(), template.getWait().getNanos());
    this.slots = slots;
    this.dispatcher = dispatcher;
    this.ticker = ticker;
    this.backoff = backoff;
    this.thread = threads.newThread(this);
  }

  void start() {
    thread.start();
  }

  /** Ends the loop: no Lease is sent after this returns, and one in flight is cancelled. */
  void stop() {
    stopping = true;
    thread.interrupt();
    Turn turn = currentTurn;
    if (turn != null) {
      turn.cancel();
    }
  }

  boolean isStopping() {
    return stopping;
  }

  /** Waits for the loop's thread to end; true if it has. */
  boolean join(Duration timeout) throws InterruptedException {
    thread.join(Math.max(1, timeout.toMillis()));
    return !thread.isAlive();
  }

  @Override
  public void run() {
    log.debug("poll loop started");
    while (!stopping) {
      try {
        pollOnce();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (RuntimeException e) {
        // A bug in the worker itself: report it like an uncaught exception, but keep leasing.
        WorkerThreads.reportUncaught(e);
        pauseQuietly(backoff.nextDelay());
      }
    }
    log.debug("poll loop stopped");
  }

  private void pollOnce() throws InterruptedException {
    int held = slots.acquireUpTo(MAX_JOBS_PER_LEASE);
    Turn turn = new Turn();
    currentTurn = turn;
    send(turn, held);
    try {
      turn.over.await();
    } catch (InterruptedException e) {
      turn.cancel();
      throw e;
    }
    if (turn.answered && backoff.failures() > 0) {
      log.info("Lease works again after {} failures", backoff.failures());
      backoff.reset();
    }
    LeaseCall last = turn.last;
    if (last.bug() != null) {
      throw last.bug();
    }
    StatusRuntimeException failure = last.failure();
    if (failure != null) {
      if (!stopping) {
        Duration delay = OverloadHint.delay(backoff, failure);
        logFailure(failure.getStatus(), delay);
        pause(delay);
      }
      return;
    }
    if (last.jobsReceived() == 0) {
      padEmptyPoll(last.sentNanos());
    }
  }

  /** Sends one Lease for {@code held} slots as part of {@code turn}; never blocks. */
  private void send(Turn turn, int held) {
    LeaseCall call = new LeaseCall(held, slots, dispatcher, ticker, ended -> ended(turn, ended));
    turn.current = call;
    log.debug("leasing up to {} jobs", held);
    turn.sending = Thread.currentThread();
    try {
      work.lease(
          template.toBuilder().setMaxJobs(held).build(),
          wait.plus(LEASE_DEADLINE_MARGIN).toNanos(),
          call);
    } catch (RuntimeException e) {
      call.startFailed(e);
      return;
    } finally {
      turn.sending = null;
    }
    if (stopping) {
      call.cancel();
    }
  }

  /**
   * Where a Lease call ends, usually on the transport thread: if it brought jobs and slots are
   * free, the next Lease goes out from here; otherwise the turn is over and the loop's thread goes
   * on.
   */
  private void ended(Turn turn, LeaseCall call) {
    if (call.answered()) {
      turn.answered = true;
      log.debug("leased {} jobs", call.jobsReceived());
    }
    boolean chain =
        !stopping
            && call.failure() == null
            && call.bug() == null
            && call.jobsReceived() > 0
            // An answer delivered inside the sending call (a direct in-process channel) would
            // recurse once per Lease; the loop's thread sends the next one instead.
            && turn.sending != Thread.currentThread();
    if (chain) {
      int free = slots.tryAcquireUpTo(MAX_JOBS_PER_LEASE);
      if (free > 0) {
        send(turn, free);
        return;
      }
    }
    turn.last = call;
    turn.over.countDown();
  }

  private void padEmptyPoll(long sentNanos) throws InterruptedException {
    long early = MIN_EMPTY_POLL_NANOS - (System.nanoTime() - sentNanos);
    if (early > 0) {
      pause(Duration.ofNanos(early));
    }
  }

  private void logFailure(Status status, Duration delay) {
    switch (status.getCode()) {
      case UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, CANCELLED -> {
        if (backoff.failures() == 1) {
          log.warn("Lease failed ({}); retrying with backoff", StatusText.of(status));
        } else {
          log.debug(
              "Lease failed {} times in a row ({}); retrying in {} ms",
              backoff.failures(),
              StatusText.of(status),
              delay.toMillis());
        }
      }
      default ->
          log.error(
              "Lease rejected ({}); retrying in {} ms; check the worker's settings",
              StatusText.of(status),
              delay.toMillis());
    }
  }

  private static void pause(Duration delay) throws InterruptedException {
    TimeUnit.NANOSECONDS.sleep(delay.toNanos());
  }

  private static void pauseQuietly(Duration delay) {
    try {
      pause(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
