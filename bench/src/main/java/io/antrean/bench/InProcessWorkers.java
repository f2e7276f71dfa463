package io.antrean.bench;

import io.antrean.worker.Worker;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * W workers of the worker library ({@link Worker}) in the bench's own JVM, each with K handler
 * threads running {@link StartStampHandler} for {@code bench.noop}: the same poll loop, completion
 * batching and lease keeping as a worker process, without a process of its own. A diagnostic of the
 * coordinator (the workers share the bench's CPU and connection), and what drains the jobs the
 * enqueue scenarios leave behind. Thread-safe.
 */
final class InProcessWorkers implements BenchWorkers {
  /** How long each Lease waits for a job; short, so that stopping is quick. */
  static final Duration POLL_WAIT = Duration.ofSeconds(5);

  private static final Duration STOP_GRACE = Duration.ofSeconds(10);

  private final BenchContext context;
  private final List<Worker> workers;
  private final int concurrency;
  private volatile boolean closing;

  private InProcessWorkers(BenchContext context, List<Worker> workers, int concurrency) {
    this.context = context;
    this.workers = workers;
    this.concurrency = concurrency;
  }

  /**
   * Builds and starts {@code count} workers on {@code queue}, sharing the target's worker channel.
   *
   * @param concurrency handler threads of each
   * @param prefetch the most jobs each leases beyond its handler threads
   */
  static InProcessWorkers start(
      BenchContext context, String queue, int count, int concurrency, int prefetch) {
    BenchTarget target = context.target();
    StartStampHandler handler = new StartStampHandler(Clock.systemUTC());
    String prefix = "bench-" + ProcessHandle.current().pid() + "-" + queue + "-";
    List<Worker> workers = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      workers.add(
          Worker.builder()
              .channel(target.workerChannel())
              .queue(queue)
              .concurrency(concurrency)
              .prefetch(prefetch)
              .handler(BenchSettings.JOB_TYPE, handler)
              .workerId(prefix + i)
              .pollWait(POLL_WAIT)
              .rpcTimeout(target.callTimeout())
              .shutdownGrace(STOP_GRACE)
              .build());
    }
    workers.forEach(Worker::start);
    return new InProcessWorkers(context, workers, concurrency);
  }

  @Override
  public String describe() {
    return workers.size() + "x" + concurrency + " in-process";
  }

  @Override
  public void throwIfFailed() {
    for (Worker worker : workers) {
      if (worker.isTerminated() && !closing) {
        throw new BenchFailedException("in-process worker " + worker.workerId() + " stopped");
      }
    }
  }

  /** Shuts every worker down gracefully and waits for them. */
  @Override
  public void close() {
    closing = true;
    workers.forEach(Worker::shutdown);
    try {
      for (Worker worker : workers) {
        if (!worker.awaitTermination(STOP_GRACE.plusSeconds(5))) {
          context.warn("in-process worker " + worker.workerId() + " did not stop in time");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
