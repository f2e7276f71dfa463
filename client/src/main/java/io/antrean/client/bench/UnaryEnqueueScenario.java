package io.antrean.client.bench;

import io.antrean.proto.v1.EnqueueRequest;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code enqueue-1} and {@code enqueue-50}: N unary Enqueue calls from C threads, each with a
 * blocking call in flight, and the latency of every call. The first failed call stops every thread
 * and is rethrown once all have stopped.
 */
final class UnaryEnqueueScenario {
  private final BenchContext context;
  private final Scenario scenario;
  private final int concurrency;

  /**
   * @param concurrency calls in flight: 1 for enqueue-1, {@code --concurrency} for enqueue-50
   */
  UnaryEnqueueScenario(BenchContext context, Scenario scenario, int concurrency) {
    this.context = context;
    this.scenario = scenario;
    this.concurrency = concurrency;
  }

  /** Sends the jobs, then drains the queue if asked to; returns the measurement. */
  BenchResult run() throws InterruptedException {
    int jobs = context.settings().jobsFor(scenario);
    String queue = context.settings().queueForScenario();
    EnqueueRequest request = BenchContext.request(queue, context.payload().untimed());
    LatencySamples samples = new LatencySamples(jobs);
    AtomicInteger next = new AtomicInteger();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    int threads = Math.min(concurrency, jobs);
    ExecutorService pool =
        Executors.newFixedThreadPool(threads, BenchContext.daemonThreads("antrean-bench-enqueue"));
    long start = System.nanoTime();
    try (ProgressTicker ticker =
        context.progress(() -> progressLine(samples.count(), jobs, start))) {
      for (int t = 0; t < threads; t++) {
        pool.execute(() -> sendUntilDone(request, jobs, next, samples, failure));
      }
      pool.shutdown();
      // Every call has a deadline, so the threads end; the wait is only bounded as a safety net.
      long bound = context.target().callTimeout().toNanos() * (jobs / threads + 1);
      if (!pool.awaitTermination(bound, TimeUnit.NANOSECONDS)) {
        throw new BenchFailedException(scenario.label() + ": calls did not end within deadline");
      }
    } finally {
      pool.shutdownNow();
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    if (failure.get() != null) {
      throw failure.get();
    }
    QueueDrain.afterEnqueueScenario(context, queue, jobs);
    return new BenchResult(
        scenario, queue, jobs, threads, "-", elapsed, samples.summary(), "Enqueue call");
  }

  private void sendUntilDone(
      EnqueueRequest request,
      int jobs,
      AtomicInteger next,
      LatencySamples samples,
      AtomicReference<RuntimeException> failure) {
    while (failure.get() == null && next.getAndIncrement() < jobs) {
      long sent = System.nanoTime();
      try {
        context.client().enqueue(request);
      } catch (RuntimeException e) {
        failure.compareAndSet(null, e);
        return;
      }
      samples.record(System.nanoTime() - sent);
    }
  }

  private String progressLine(int done, int jobs, long start) {
    double seconds = (System.nanoTime() - start) / 1e9;
    return String.format(
        Locale.ROOT, "%s: %d/%d jobs, %.0f jobs/s", scenario.label(), done, jobs, done / seconds);
  }
}
