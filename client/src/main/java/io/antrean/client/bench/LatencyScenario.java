package io.antrean.client.bench;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code latency}: sends Enqueues at a steady {@code --rate} for {@code --duration} while
 * in-process no-op workers lease the jobs, and measures for every job the time from just before its
 * Enqueue was sent to the arrival of the Lease response that carried it. Both ends are read from
 * {@link System#nanoTime()} in this JVM: the send time travels in the job's payload. Sends are
 * paced on a fixed schedule and made by {@code --concurrency} threads, so a slow answer does not
 * delay the next send while fewer than that many are in flight; if the coordinator falls further
 * behind, sends wait, and the achieved rate shows it.
 */
final class LatencyScenario {
  private static final long RECEIPT_POLL_MILLIS = 5;
  // Sends over a whole run lose a little to scheduling; less than this share is falling behind.
  private static final double KEPT_RATE_SHARE = 0.9;

  private final BenchContext context;

  LatencyScenario(BenchContext context) {
    this.context = context;
  }

  /** Runs the scenario; returns the measurement. */
  BenchResult run() throws InterruptedException {
    BenchSettings settings = context.settings();
    int jobs = settings.jobsFor(Scenario.LATENCY);
    String queue = settings.queueForScenario();
    LatencySamples samples = new LatencySamples(jobs);
    AtomicLong sent = new AtomicLong();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    ExecutorService senders =
        Executors.newFixedThreadPool(
            settings.concurrency(), BenchContext.daemonThreads("antrean-bench-sender"));
    try (NoopWorkerPool pool =
        NoopWorkerPool.start(
            context,
            queue,
            settings.workersFor(Scenario.LATENCY),
            settings.workerConcurrency(),
            (job, arrivalNanos) ->
                context
                    .payload()
                    .sentNanos(job.getPayload())
                    .ifPresent(sentNanos -> samples.record(arrivalNanos - sentNanos)))) {
      long start = System.nanoTime();
      try (ProgressTicker ticker =
          context.progress(
              () ->
                  String.format(
                      Locale.ROOT,
                      "latency: %d/%d jobs sent, %d leased",
                      sent.get(),
                      jobs,
                      samples.count()))) {
        for (int i = 0; i < jobs && failure.get() == null; i++) {
          parkUntil(start + (long) (i * 1e9 / settings.rate()));
          senders.execute(() -> send(queue, sent, failure));
        }
        senders.shutdown();
        long bound = settings.duration().plus(context.target().callTimeout()).toNanos();
        if (!senders.awaitTermination(bound, TimeUnit.NANOSECONDS)) {
          throw new BenchFailedException(
              "latency: the coordinator did not keep up with --rate "
                  + settings.rate()
                  + ": Enqueue calls were still waiting to be sent after --duration plus --timeout");
        }
        if (failure.get() != null) {
          throw failure.get();
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        awaitReceipts(samples, sent.get(), pool, settings, queue);
        BenchResult result =
            new BenchResult(
                Scenario.LATENCY,
                queue,
                sent.get(),
                settings.concurrency(),
                pool.describe(),
                elapsed,
                samples.summary(),
                "Enqueue sent to job leased");
        warnIfBehind(result, settings);
        return result;
      }
    } finally {
      senders.shutdownNow();
    }
  }

  private void send(String queue, AtomicLong sent, AtomicReference<RuntimeException> failure) {
    if (failure.get() != null) {
      return;
    }
    try {
      long now = System.nanoTime();
      context.client().enqueue(BenchContext.request(queue, context.payload().stamped(now)));
      sent.incrementAndGet();
    } catch (RuntimeException e) {
      failure.compareAndSet(null, e);
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

  private static void awaitReceipts(
      LatencySamples samples, long sent, NoopWorkerPool pool, BenchSettings settings, String queue)
      throws InterruptedException {
    long deadline = System.nanoTime() + settings.waitLimit().toNanos();
    while (samples.count() < sent) {
      pool.throwIfFailed();
      if (System.nanoTime() - deadline >= 0) {
        throw new BenchFailedException(
            String.format(
                Locale.ROOT,
                "latency: only %d of %d jobs reached the bench's workers within %s; is another"
                    + " worker leasing %s jobs from queue %s?",
                samples.count(),
                sent,
                settings.waitText(),
                BenchSettings.JOB_TYPE,
                queue));
      }
      Thread.sleep(RECEIPT_POLL_MILLIS);
    }
  }
}
