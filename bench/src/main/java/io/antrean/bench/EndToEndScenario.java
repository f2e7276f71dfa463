package io.antrean.client.bench;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;

/**
 * {@code end-to-end}: enqueues N {@code bench.noop} jobs in batches while workers run them, and
 * measures from the first enqueue to the last completion. The workers are in-process no-op workers,
 * or with {@code --workers 0} external ones already serving {@code --queue}. The end is the last
 * completion an in-process worker had acknowledged (GetStats is asked only twice a second
 * meanwhile, so watching does not load the coordinator), or for external workers the GetStats poll
 * that first counts every job finished (so it is {@link QueueWatch#POLL_INTERVAL} precise, or a
 * little less when GetStats is slow).
 */
final class EndToEndScenario {
  private static final Duration LAST_ACK_GRACE = Duration.ofSeconds(1);

  private final BenchContext context;

  EndToEndScenario(BenchContext context) {
    this.context = context;
  }

  /** Runs the scenario; returns the measurement. */
  BenchResult run() throws InterruptedException {
    BenchSettings settings = context.settings();
    int jobs = settings.jobsFor(Scenario.END_TO_END);
    String queue = settings.queueForScenario();
    int workers = settings.workersFor(Scenario.END_TO_END);
    QueueWatch watch = new QueueWatch(context.client(), queue);
    long leftOver = watch.baseline().getPending() + watch.baseline().getRunning();
    if (leftOver > 0) {
      context.warn(
          "queue "
              + queue
              + " already holds "
              + leftOver
              + " open jobs; they are counted with this run's");
    }
    NoopWorkerPool pool =
        workers == 0
            ? null
            : NoopWorkerPool.start(
                context, queue, workers, settings.workerConcurrency(), (job, at) -> {});
    try {
      AtomicLong enqueued = new AtomicLong();
      long start = System.nanoTime();
      boolean finished;
      try (ProgressTicker ticker =
          context.progress(() -> progressLine(enqueued.get(), jobs, pool, watch))) {
        BatchEnqueueScenario.enqueueAll(context, queue, jobs, enqueued);
        finished =
            pool == null
                ? watch.awaitFinished(jobs, settings.waitLimit(), () -> checkWorkers(pool))
                : watch.awaitFinished(
                    jobs, settings.waitLimit(), pool::throwIfFailed, pool::completed);
      }
      long observed = System.nanoTime();
      if (!finished) {
        throw new BenchFailedException(
            String.format(
                Locale.ROOT,
                "end-to-end: only %d of %d jobs finished within %s (queue %s: %s)%s",
                watch.finished(),
                jobs,
                settings.waitText(),
                queue,
                watch.describeLatest(),
                pool == null
                    ? "; are workers for " + BenchSettings.JOB_TYPE + " serving it?"
                    : ""));
      }
      if (watch.succeeded() < jobs) {
        throw new BenchFailedException(
            "end-to-end: not every job succeeded (queue "
                + queue
                + ": "
                + watch.describeLatest()
                + ")");
      }
      long end = pool != null && awaitLastAck(pool, jobs) ? pool.lastCompletionNanos() : observed;
      return new BenchResult(
          Scenario.END_TO_END,
          queue,
          jobs,
          1,
          pool == null ? "external" : pool.describe(),
          Duration.ofNanos(end - start),
          null,
          "");
    } finally {
      if (pool != null) {
        pool.close();
      }
    }
  }

  private static void checkWorkers(@Nullable NoopWorkerPool pool) {
    if (pool != null) {
      pool.throwIfFailed();
    }
  }

  /** Waits for the acknowledgement of the last completion, which may trail GetStats a little. */
  private static boolean awaitLastAck(NoopWorkerPool pool, int jobs) throws InterruptedException {
    long deadline = System.nanoTime() + LAST_ACK_GRACE.toNanos();
    while (pool.completed() < jobs) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      Thread.sleep(1);
    }
    return true;
  }

  private static String progressLine(
      long enqueued, int jobs, @Nullable NoopWorkerPool pool, QueueWatch watch) {
    long done = pool != null ? pool.completed() : watch.finished();
    return String.format(
        Locale.ROOT, "end-to-end: %d/%d jobs enqueued, %d finished", enqueued, jobs, done);
  }
}
