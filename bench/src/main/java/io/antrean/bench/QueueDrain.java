package io.antrean.bench;

import io.antrean.client.AntreanException;
import java.util.Locale;

/**
 * Runs the jobs an enqueue scenario left in its fresh queue, with in-process no-op workers and
 * outside the measurement, so that a bench run leaves no pending work behind to skew the
 * coordinator's stats or a later run. It goes on as long as jobs keep finishing, so a backlog of
 * millions is run off however long that takes, and gives up when {@code --wait} passes without one.
 * Trouble here is a warning, not a failed run.
 */
final class QueueDrain {
  private QueueDrain() {}

  /**
   * Drains {@code queue} of its {@code jobs} bench jobs if the settings ask for it (the default for
   * fresh {@code bench-…} queues; never for a queue named with {@code --queue}).
   */
  static void afterEnqueueScenario(BenchContext context, String queue, int jobs)
      throws InterruptedException {
    BenchSettings settings = context.settings();
    if (!settings.drainsQueue()) {
      return;
    }
    QueueWatch watch = new QueueWatch(context.client(), queue);
    try (InProcessWorkers workers =
            InProcessWorkers.start(
                context,
                queue,
                settings.drainWorkers(),
                settings.workerConcurrency(),
                settings.workerPrefetch());
        ProgressTicker ticker =
            context.progress(
                () ->
                    String.format(
                        Locale.ROOT,
                        "draining %s: %d/%d jobs run",
                        queue,
                        watch.finished(),
                        jobs))) {
      if (!awaitFinishedWhileProgressing(watch, jobs, settings, workers)) {
        context.warn(
            "gave up draining "
                + queue
                + " after "
                + settings.waitText()
                + " without a job finishing"
                + " ("
                + watch.describeLatest()
                + ")");
      }
    } catch (BenchFailedException | AntreanException e) {
      context.warn("draining " + queue + " failed: " + e.getMessage());
    }
  }

  /** Waits for the jobs, a {@code --wait} at a time, for as long as each wait saw some finish. */
  private static boolean awaitFinishedWhileProgressing(
      QueueWatch watch, int jobs, BenchSettings settings, BenchWorkers workers)
      throws InterruptedException {
    long finishedBefore = 0;
    // The watch started with the jobs stored.
    while (!watch.awaitFinished(jobs, jobs, settings.waitLimit(), workers::throwIfFailed)) {
      if (watch.finished() <= finishedBefore) {
        return false;
      }
      finishedBefore = watch.finished();
    }
    return true;
  }
}
