package io.antrean.bench;

import io.antrean.proto.v1.EnqueueRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code latency}: sends Enqueues at a steady {@code --rate} for {@code --duration} while workers
 * run the jobs, and measures for every job the time from just before its Enqueue was sent to the
 * start of its handler in a worker. The send time travels in the job's payload and the {@code
 * bench.noop} handler returns its start as the job's result, both in microseconds since the epoch
 * on this machine's clock; once every job has run, {@link HandlerStarts} reads them back with
 * ListJobs. Sends are paced on a fixed schedule through an asynchronous stub with up to {@code
 * --concurrency} calls in flight, so a slow answer does not delay the next send while fewer than
 * that many are in flight; if the coordinator falls further behind, sends wait, and the achieved
 * rate shows it. The run starts with one job, which shows the workers serve the queue, then {@link
 * #WARM_UP} (or {@code --warm-up-jobs} jobs) at the same rate whose jobs are not measured, so every
 * process has begun compiling the paths before the measured window. Fresh worker JVMs keep
 * compiling for longer than that: at 500 jobs/s the first 20 seconds had four to five times the
 * latency of the next (docs/benchmarks.md), so a larger warm-up measures long-running workers.
 */
final class LatencyScenario {
  /**
   * Sent at the same rate before the measured window, not measured, unless {@code --warm-up-jobs}
   * says how many jobs.
   */
  static final Duration WARM_UP = Duration.ofSeconds(1);

  // Sends over a whole run lose a little to scheduling; less than this share is falling behind.
  private static final double KEPT_RATE_SHARE = 0.9;

  private final BenchContext context;
  private final Clock clock = Clock.systemUTC();

  LatencyScenario(BenchContext context) {
    this.context = context;
  }

  /** Runs the scenario; returns the measurement. */
  BenchResult run() throws InterruptedException {
    BenchSettings settings = context.settings();
    int jobs = settings.jobsFor(Scenario.LATENCY);
    long warmUpJobs = settings.latencyWarmUpJobs();
    String queue = settings.queueForScenario();
    try (BenchWorkers workers = context.startWorkers(queue, Scenario.LATENCY)) {
      WarmUp.runJobs(context, workers, queue, 1);
      QueueWatch watch = new QueueWatch(context.client(), queue);
      PipelinedEnqueues sender = new PipelinedEnqueues(context, "latency", settings.concurrency());
      AtomicLong sent = new AtomicLong();
      long warmUpStart = System.nanoTime();
      for (long i = 0; i < warmUpJobs; i++) {
        parkUntil(warmUpStart + (long) (i * 1e9 / settings.rate()));
        send(sender, queue, sent);
      }
      long start = warmUpStart + (long) (warmUpJobs * 1e9 / settings.rate());
      parkUntil(start);
      long measuredFromMicros = StartStampHandler.epochMicros(clock.instant());
      try (ProgressTicker ticker =
          context.progress(
              () ->
                  String.format(
                      Locale.ROOT,
                      "latency: %d/%d jobs sent",
                      Math.max(0, sent.get() - warmUpJobs),
                      jobs))) {
        for (int i = 0; i < jobs && !sender.failed(); i++) {
          parkUntil(start + (long) (i * 1e9 / settings.rate()));
          send(sender, queue, sent);
        }
        sender.awaitAll(settings.duration().plus(sender.oneCallBound()));
      }
      Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
      awaitRun(watch, sent.get(), workers, queue);
      LatencySamples samples =
          HandlerStarts.read(context, queue, measuredFromMicros, (int) (sent.get() - warmUpJobs));
      BenchResult result =
          new BenchResult(
              Scenario.LATENCY,
              queue,
              sent.get() - warmUpJobs,
              settings.concurrency(),
              workers.describe(),
              elapsed,
              samples.summary(),
              "Enqueue sent to handler start");
      warnIfBehind(result, settings);
      return result;
    }
  }

  /** Sends one Enqueue stamped now; {@code sent} counts those answered. */
  private void send(PipelinedEnqueues sender, String queue, AtomicLong sent)
      throws InterruptedException {
    long micros = StartStampHandler.epochMicros(clock.instant());
    EnqueueRequest request = BenchContext.request(queue, context.payload().stamped(micros));
    sender.send(request, sent::incrementAndGet);
  }

  private void awaitRun(QueueWatch watch, long sent, BenchWorkers workers, String queue)
      throws InterruptedException {
    BenchSettings settings = context.settings();
    if (!watch.awaitFinished(sent, settings.waitLimit(), workers::throwIfFailed)) {
      throw new BenchFailedException(
          String.format(
              Locale.ROOT,
              "latency: only %d of %d jobs finished within %s (queue %s: %s); is another worker"
                  + " leasing %s jobs from it?",
              watch.finished(),
              sent,
              settings.waitText(),
              queue,
              watch.describeLatest(),
              BenchSettings.JOB_TYPE));
    }
  }

  /** A rate well below the one asked for means the latencies are not those at that rate. */
  private void warnIfBehind(BenchResult result, BenchSettings settings) {
    if (result.jobsPerSecond() < settings.rate() * KEPT_RATE_SHARE) {
      context.warn(
          String.format(
              Locale.ROOT,
              "latency: sent %.0f jobs/s, below --rate %.0f: the coordinator (or this machine) did"
                  + " not keep up, so these latencies include queueing",
              result.jobsPerSecond(),
              settings.rate()));
    }
  }

  private static void parkUntil(long deadlineNanos) {
    long left;
    while ((left = deadlineNanos - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }
}
