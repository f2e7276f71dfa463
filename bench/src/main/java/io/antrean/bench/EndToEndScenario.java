package io.antrean.bench;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code end-to-end}: enqueues N {@code bench.noop} jobs in batches while workers run them, and
 * measures from the first enqueue to the GetStats poll that first counts every job finished (so the
 * end is {@link QueueWatch#POLL_INTERVAL} precise, or a little less when GetStats is slow). The
 * workers are worker processes the bench starts, in-process ones, or external ones already serving
 * {@code --queue}. First {@link #WARM_UP_JOBS} (at most N) jobs run the same way, unmeasured.
 */
final class EndToEndScenario {
  /** Jobs run before measuring, at most N. */
  static final int WARM_UP_JOBS = 2_000;

  private final BenchContext context;

  EndToEndScenario(BenchContext context) {
    this.context = context;
  }

  /** Runs the scenario; returns the measurement. */
  BenchResult run() throws InterruptedException {
    BenchSettings settings = context.settings();
    int jobs = settings.jobsFor(Scenario.END_TO_END);
    String queue = settings.queueForScenario();
    QueueWatch before = new QueueWatch(context.client(), queue);
    long leftOver = before.baseline().getPending() + before.baseline().getRunning();
    if (leftOver > 0) {
      context.warn(
          "queue "
              + queue
              + " already holds "
              + leftOver
              + " open jobs; they are counted with this run's");
    }
    try (BenchWorkers workers = context.startWorkers(queue, Scenario.END_TO_END)) {
      WarmUp.runJobs(context, workers, queue, Math.min(jobs, WARM_UP_JOBS));
      QueueWatch watch = new QueueWatch(context.client(), queue);
      AtomicLong enqueued = new AtomicLong();
      long start = System.nanoTime();
      boolean finished;
      try (ProgressTicker ticker =
          context.progress(() -> progressLine(enqueued.get(), jobs, watch))) {
        BatchEnqueueScenario.enqueueAll(context, queue, jobs, enqueued);
        finished = watch.awaitFinished(jobs, settings.waitLimit(), workers::throwIfFailed);
      }
      long end = System.nanoTime();
      if (!finished) {
        throw new BenchFailedException(
            String.format(
                Locale.ROOT,
                "end-to-end: only %d of %d jobs finished within %s (queue %s: %s); are workers"
                    + " for %s serving it?",
                watch.finished(),
                jobs,
                settings.waitText(),
                queue,
                watch.describeLatest(),
                BenchSettings.JOB_TYPE));
      }
      if (watch.succeeded() < jobs) {
        throw new BenchFailedException(
            "end-to-end: not every job succeeded (queue "
                + queue
                + ": "
                + watch.describeLatest()
                + ")");
      }
      return new BenchResult(
          Scenario.END_TO_END,
          queue,
          jobs,
          1,
          workers.describe(),
          Duration.ofNanos(end - start),
          null,
          "");
    }
  }

  private static String progressLine(long enqueued, int jobs, QueueWatch watch) {
    return String.format(
        Locale.ROOT,
        "end-to-end: %d/%d jobs enqueued, %d finished",
        enqueued,
        jobs,
        watch.finished());
  }
}
