package io.antrean.bench;

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
   * @throws BenchFailedException if they do not finish within {@code --wait}, or a worker stopped
   */
  static void runJobs(BenchContext context, BenchWorkers workers, String queue, int jobs)
      throws InterruptedException {
    QueueWatch watch = new QueueWatch(context.client(), queue);
    BatchEnqueueScenario.enqueueAll(context, queue, jobs, new AtomicLong());
    if (!watch.awaitFinished(jobs, context.settings().waitLimit(), workers::throwIfFailed)) {
      throw new BenchFailedException(
          "warm-up: only "
              + watch.finished()
              + " of "
              + jobs
              + " jobs finished within "
              + context.settings().waitText()
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
