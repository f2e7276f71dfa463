package io.antrean.client.bench;

import io.antrean.proto.v1.EnqueueRequest;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code latency}: sends Enqueues at a steady {@code --rate} for {@code --duration} while
 * in-process no-op workers lease the jobs, and measures for every job the time from just before its
 * Enqueue was sent to the arrival of the Lease response that carried it. Both ends are read from
 * {@link System#nanoTime()} in this JVM: the send time travels in the job's payload. Sends are
 * paced on a fixed schedule through an asynchronous stub with up to {@code --concurrency} calls in
 * flight, so a slow answer does not delay the next send while fewer than that many are in flight;
 * if the coordinator falls further behind, sends wait, and the achieved rate shows it. The run
 * starts with {@link #WARM_UP} at the same rate whose jobs are not measured, so the JIT compilers
 * of both ends are done with the paths before the measured window.
 */
final class LatencyScenario {
  /** Sent at the same rate before the measured window; not measured. */
  static final Duration WARM_UP = Duration.ofSeconds(1);

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
    long warmUpJobs = (long) Math.ceil(settings.rate() * WARM_UP.toNanos() / 1e9);
    String queue = settings.queueForScenario();
    LatencySamples samples = new LatencySamples(jobs);
    AtomicLong received = new AtomicLong();
    AtomicLong measuredFrom = new AtomicLong(Long.MAX_VALUE);
    try (NoopWorkerPool pool =
        NoopWorkerPool.start(
            context,
            queue,
            settings.workersFor(Scenario.LATENCY),
            settings.workerConcurrency(),
            (job, arrivalNanos) -> {
              received.incrementAndGet();
              context
                  .payload()
                  .sentNanos(job.getPayload())
                  .ifPresent(
                      sentNanos -> {
                        if (sentNanos - measuredFrom.get() >= 0) {
                          samples.record(arrivalNanos - sentNanos);
                        }
                      });
            })) {
      PipelinedEnqueues sender = new PipelinedEnqueues(context, "latency", settings.concurrency());
      AtomicLong sent = new AtomicLong();
      long warmUpStart = System.nanoTime();
      for (long i = 0; i < warmUpJobs; i++) {
        parkUntil(warmUpStart + (long) (i * 1e9 / settings.rate()));
        send(sender, queue, sent);
      }
      long start = warmUpStart + (long) (warmUpJobs * 1e9 / settings.rate());
      measuredFrom.set(start);
      try (ProgressTicker ticker =
          context.progress(
              () ->
                  String.format(
                      Locale.ROOT,
                      "latency: %d/%d jobs sent, %d leased",
                      Math.max(0, sent.get() - warmUpJobs),
                      jobs,
                      samples.count()))) {
        for (int i = 0; i < jobs && !sender.failed(); i++) {
          parkUntil(start + (long) (i * 1e9 / settings.rate()));
          send(sender, queue, sent);
        }
        sender.awaitAll(settings.duration().plus(sender.oneCallBound()));
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        awaitReceipts(received, sent.get(), pool, settings, queue);
        BenchResult result =
            new BenchResult(
                Scenario.LATENCY,
                queue,
                sent.get() - warmUpJobs,
                settings.concurrency(),
                pool.describe(),
                elapsed,
                samples.summary(),
                "Enqueue sent to job leased");
        warnIfBehind(result, settings);
        return result;
      }
    }
  }

  /** Sends one Enqueue stamped now; {@code sent} counts those answered. */
  private void send(PipelinedEnqueues sender, String queue, AtomicLong sent)
      throws InterruptedException {
    EnqueueRequest request =
        BenchContext.request(queue, context.payload().stamped(System.nanoTime()));
    sender.send(request, sent::incrementAndGet);
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
      AtomicLong received, long sent, NoopWorkerPool pool, BenchSettings settings, String queue)
      throws InterruptedException {
    long deadline = System.nanoTime() + settings.waitLimit().toNanos();
    while (received.get() < sent) {
      pool.throwIfFailed();
      if (System.nanoTime() - deadline >= 0) {
        throw new BenchFailedException(
            String.format(
                Locale.ROOT,
                "latency: only %d of %d jobs reached the bench's workers within %s; is another"
                    + " worker leasing %s jobs from queue %s?",
                received.get(),
                sent,
                settings.waitText(),
                BenchSettings.JOB_TYPE,
                queue));
      }
      Thread.sleep(RECEIPT_POLL_MILLIS);
    }
  }
}
