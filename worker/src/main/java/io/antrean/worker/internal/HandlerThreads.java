package io.antrean.worker.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run the handlers: at most {@code concurrency} jobs at a time, started in the
 * order they were handed over, on threads named {@code antrean-handler-<n>}.
 *
 * <p>A {@link ForkJoinPool} runs them rather than a fixed {@code ThreadPoolExecutor}, for how it
 * wakes its threads. A {@code ThreadPoolExecutor}'s queue wakes a parked thread for every job
 * handed to it, so a Lease answer of 25 short jobs cost up to 25 wake-ups and as many trips through
 * the scheduler; the pool wakes one thread when jobs arrive and that thread another while more
 * wait, so short jobs are run by the threads already awake. In end-to-end runs with two worker
 * processes (docs/benchmarks.md, "The handler threads woken as needed") each worker made about half
 * the context switches per job and its handler threads took about a third of the CPU.
 *
 * <p>The jobs wait in a queue of this class's own, and each task the pool runs takes the head of
 * it: the pool's own queues, one per submitting thread, would not keep the order between jobs
 * handed over by different threads (the poll loop's and the completion queue's). The pool never
 * runs more than {@code concurrency} threads, not even to stand in for a handler blocked in {@link
 * ForkJoinPool#managedBlock} (a {@code CompletableFuture.get()}, for one): such a handler holds its
 * thread as it would any other. The threads are not daemons, carry the context class loader of the
 * thread that built the worker, and live until {@link #shutdownNow}.
 *
 * <p>Thread-safe.
 */
final class HandlerThreads {
  /** Idle threads wait for jobs this long before they end; the worker's lifetime, in effect. */
  private static final long KEEP_ALIVE_DAYS = 365;

  private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
  private final ForkJoinPool pool;

  /**
   * @param concurrency how many jobs may run at once, at least 1
   */
  HandlerThreads(int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
    }
    ClassLoader contextLoader = Thread.currentThread().getContextClassLoader();
    AtomicInteger count = new AtomicInteger();
    this.pool =
        new ForkJoinPool(
            concurrency,
            pool -> {
              ForkJoinWorkerThread thread = new HandlerThread(pool);
              thread.setName("antrean-handler-" + count.incrementAndGet());
              thread.setDaemon(false);
              thread.setContextClassLoader(contextLoader);
              return thread;
            },
            null, // a bug in a task goes to the thread's uncaught-exception handler
            true, // first in, first out
            concurrency,
            concurrency, // no thread beyond concurrency stands in for a blocked one
            1,
            pool -> true, // a blocked handler holds its thread; no RejectedExecutionException
            KEEP_ALIVE_DAYS,
            TimeUnit.DAYS);
  }

  /**
   * Runs {@code job} on a handler thread once one is free, after the jobs handed over before it.
   *
   * @throws RejectedExecutionException after {@link #shutdownNow}; {@code job} then never runs
   */
  void execute(Runnable job) {
    waiting.add(job);
    try {
      pool.execute(this::runNext);
    } catch (RejectedExecutionException e) {
      if (waiting.remove(job)) {
        throw e;
      }
      // Taken meanwhile by drainWaiting(), whose caller runs it.
    }
  }

  /** Takes the jobs not yet started, in the order they were handed over; they will not run here. */
  List<Runnable> drainWaiting() {
    List<Runnable> drained = new ArrayList<>();
    for (Runnable job = waiting.poll(); job != null; job = waiting.poll()) {
      drained.add(job);
    }
    return drained;
  }

  /**
   * Accepts no more jobs, interrupts the handlers still running and ends the threads; the jobs not
   * yet started do not run.
   */
  void shutdownNow() {
    waiting.clear();
    pool.shutdownNow();
  }

  /** The threads the pool has made so far and not yet ended. */
  int threadCount() {
    return pool.getPoolSize();
  }

  private void runNext() {
    Runnable job = waiting.poll();
    if (job != null) {
      job.run();
    }
  }

  /** A thread of the pool; the subclass reaches the constructor that sets no class loader. */
  private static final class HandlerThread extends ForkJoinWorkerThread {
    HandlerThread(ForkJoinPool pool) {
      super(pool);
    }
  }
}
