package io.antrean.bench;

import io.antrean.proto.v1.EnqueueRequest;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code enqueue-1} and {@code enqueue-50}: N Enqueues with C in flight, and the latency of every
 * one from just before it is sent to its answer. With C = 1 one thread calls the Java client's
 * blocking {@code enqueue}, as a producer does (the client sends it on its Produce stream). With
 * more, one thread sends on a Produce stream whenever one of C permits is free ({@link
 * PipelinedEnqueues}), and each answer frees its permit on the transport's thread. The first failed
 * Enqueue stops the sending; it is thrown, translated as the client translates it, once those in
 * flight have been answered. The N measured Enqueues follow {@link #WARM_UP_CALLS} (at most N) made
 * the same way and not measured, so the JIT compilers of both ends are past these paths.
 */
final class EnqueueScenario {
  /** Calls made before the measured ones, the same way; not measured. */
  static final int WARM_UP_CALLS = 1_000;

  private final BenchContext context;
  private final Scenario scenario;
  private final int concurrency;

  /**
   * @param concurrency calls in flight: 1 for enqueue-1, {@code --concurrency} for enqueue-50
   */
  EnqueueScenario(BenchContext context, Scenario scenario, int concurrency) {
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
    int inFlight = Math.min(concurrency, jobs);
    int warmUp = Math.min(WARM_UP_CALLS, jobs);
    send(request, warmUp, inFlight, new LatencySamples(warmUp));
    long start = System.nanoTime();
    try (ProgressTicker ticker =
        context.progress(() -> progressLine(samples.count(), jobs, start))) {
      send(request, jobs, inFlight, samples);
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    QueueDrain.afterEnqueueScenario(context, queue, warmUp + jobs);
    return new BenchResult(
        scenario, queue, jobs, inFlight, "-", elapsed, samples.summary(), "Enqueue call");
  }

  private void send(EnqueueRequest request, int jobs, int inFlight, LatencySamples samples)
      throws InterruptedException {
    if (inFlight == 1) {
      sendBlocking(request, jobs, samples);
    } else {
      sendPipelined(request, jobs, inFlight, samples);
    }
  }

  private void sendBlocking(EnqueueRequest request, int jobs, LatencySamples samples) {
    for (int i = 0; i < jobs; i++) {
      long sent = System.nanoTime();
      context.client().enqueue(request);
      samples.record(System.nanoTime() - sent);
    }
  }

  private void sendPipelined(EnqueueRequest request, int jobs, int inFlight, LatencySamples samples)
      throws InterruptedException {
    PipelinedEnqueues calls = new PipelinedEnqueues(context, scenario.label(), inFlight);
    for (int i = 0; i < jobs; i++) {
      long sent = System.nanoTime();
      if (!calls.send(request, () -> samples.record(System.nanoTime() - sent))) {
        break;
      }
    }
    calls.awaitAll(calls.oneCallBound());
  }

  private String progressLine(int done, int jobs, long start) {
    double seconds = (System.nanoTime() - start) / 1e9;
    return String.format(
        Locale.ROOT, "%s: %d/%d jobs, %.0f jobs/s", scenario.label(), done, jobs, done / seconds);
  }
}
