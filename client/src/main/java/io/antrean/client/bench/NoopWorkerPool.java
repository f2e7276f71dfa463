package io.antrean.client.bench;

import io.antrean.proto.v1.Job;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.annotation.Nullable;

/**
 * W in-process {@link NoopWorker}s on one queue, each on its own daemon thread, with shared
 * counters: completions, the time of the last one, and the first failure. Talks to the coordinator
 * through raw WorkerService stubs, so the client does not depend on the worker module. Thread-safe;
 * close it to stop the workers.
 */
final class NoopWorkerPool implements AutoCloseable {
  /** Told of every job a worker leases, on that worker's thread; must be quick and thread-safe. */
  @FunctionalInterface
  interface LeaseListener {
    /**
     * @param arrivalNanos {@link System#nanoTime()} when the Lease response arrived
     */
    void leased(Job job, long arrivalNanos);
  }

  private static final Duration STOP_GRACE = Duration.ofSeconds(5);

  private final BenchContext context;
  private final int workerCount;
  private final int slotsEach;
  private final LeaseListener listener;
  private final List<NoopWorker> workers = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong lastCompletionNanos = new AtomicLong();
  private final AtomicReference<BenchFailedException> failure = new AtomicReference<>();

  private NoopWorkerPool(
      BenchContext context, int workerCount, int slotsEach, LeaseListener listener) {
    this.context = context;
    this.workerCount = workerCount;
    this.slotsEach = slotsEach;
    this.listener = listener;
  }

  /**
   * Starts {@code workerCount} workers with {@code slotsEach} lease slots each on {@code queue}.
   *
   * @param listener told of every leased job
   */
  static NoopWorkerPool start(
      BenchContext context, String queue, int workerCount, int slotsEach, LeaseListener listener) {
    NoopWorkerPool pool = new NoopWorkerPool(context, workerCount, slotsEach, listener);
    BenchTarget target = context.target();
    ThreadFactory threads = BenchContext.daemonThreads("antrean-bench-worker");
    String prefix = "bench-" + ProcessHandle.current().pid() + "-" + queue + "-";
    for (int i = 1; i <= workerCount; i++) {
      NoopWorker worker =
          new NoopWorker(
              prefix + i,
              queue,
              slotsEach,
              target.workerChannel(),
              target.callTimeout(),
              target.completeBatchUnimplemented(),
              pool);
      pool.workers.add(worker);
      pool.threads.add(threads.newThread(worker));
    }
    pool.threads.forEach(Thread::start);
    return pool;
  }

  /** Workers times slots, as results show it: {@code 2x25}. */
  String describe() {
    return workerCount + "x" + slotsEach;
  }

  /** Jobs completed so far (the coordinator acknowledged their completion). */
  long completed() {
    return completed.get();
  }

  /**
   * {@link System#nanoTime()} of the latest answer that acknowledged a completion; 0 before the
   * first.
   */
  long lastCompletionNanos() {
    return lastCompletionNanos.get();
  }

  /** Throws the first failure of any worker, if there was one. */
  void throwIfFailed() {
    BenchFailedException first = failure.get();
    if (first != null) {
      throw first;
    }
  }

  LeaseListener listener() {
    return listener;
  }

  /** Counts {@code jobs} completions the coordinator just acknowledged. */
  void completed(int jobs) {
    // Set the time before counting, so whoever sees the last count also sees its time; max, as
    // two workers' acknowledgements may race.
    lastCompletionNanos.accumulateAndGet(System.nanoTime(), Math::max);
    completed.addAndGet(jobs);
  }

  /**
   * Records a worker's failure; the first one is what {@link #throwIfFailed} throws.
   *
   * @param cause the failed call, whose status joins the message; {@code null} when the
   *     coordinator's answer refused a job and {@code what} says so
   */
  void failed(String what, @Nullable Throwable cause) {
    String message;
    if (cause == null) {
      message = "in-process worker " + what;
    } else {
      Status status = Status.fromThrowable(cause);
      String description = status.getDescription() == null ? "" : ": " + status.getDescription();
      message = "in-process worker " + what + ": " + status.getCode() + description;
    }
    failure.compareAndSet(null, new BenchFailedException(message, cause));
  }

  /** A worker found the coordinator without CompleteBatch: says so once per run. */
  void fellBackToUnary() {
    context.warn(
        "the coordinator does not implement CompleteBatch (UNIMPLEMENTED); in-process workers"
            + " send one Complete per job for the rest of the run");
  }

  /**
   * Stops every worker, cancelling their long-polls, and waits briefly for the answers to the
   * completions in flight.
   */
  @Override
  public void close() {
    workers.forEach(NoopWorker::stop);
    try {
      for (Thread thread : threads) {
        thread.join(STOP_GRACE.toMillis());
      }
      for (NoopWorker worker : workers) {
        worker.awaitIdle(STOP_GRACE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
