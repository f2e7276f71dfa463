package io.antrean.bench;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The unmeasured jobs a scenario runs before it measures: they prove its workers are serving the
 * queue (worker processes take a second or two to start) and let every JVM compile the paths that
 * are then measured. Stateless.
 */
final class WarmUp {
  private WarmUp() {}

  /**
   * Enqueues {@code jobs} bench jobs into {@code queue} and waits for them to finish.
   *
   * @throws BenchFailedException if they do not finish within {@code --wait} (plus the workers'
   *     {@linkplain BenchWorkers#startAllowance() start allowance}), or a worker stopped
   */
  static void runJobs(BenchContext context, BenchWorkers workers, String queue, int jobs)
      throws InterruptedException {
    QueueWatch watch = new QueueWatch(context.client(), queue);
    BatchEnqueueScenario.enqueueAll(context, queue, jobs, new AtomicLong());
    Duration limit = context.settings().waitLimit().plus(workers.startAllowance());
    if (!watch.awaitFinished(jobs, limit, workers::throwIfFailed)) {
      throw new BenchFailedException(
          "warm-up: only "
              + watch.finished()
              + " of "
              + jobs
              + " jobs finished within "
              + String.format(Locale.ROOT, "%.1f s", limit.toMillis() / 1000.0)
              + " (queue "
              + queue
              + ": "
              + watch.describeLatest()
              + "); are workers for "
              + BenchSettings.JOB_TYPE
              + " serving it?");
    }
  }
}
