package io.antrean.bench;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code end-to-end}: N {@code bench.noop} jobs run by workers, measured to the answer of the poll
 * that first finds none of them unfinished (so the end is {@link QueueWatch#POLL_INTERVAL} precise,
 * or a little less when the poll is slow; see {@link QueueWatch}). By default the jobs are enqueued
 * in batches while the queue is paused, and the time runs from resuming it, as the peer benchmark
 * prefills its queue and times its workers from their start; with {@code --no-prefill} they are
 * enqueued while the workers run, and the time runs from the first enqueue. The workers are worker
 * processes the bench starts, in-process ones, or external ones already serving {@code --queue}.
 * First {@link BenchSettings#warmUpJobsFor} jobs run, unmeasured, with the queue not paused.
 */
final class EndToEndScenario {
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
    // A fresh queue cannot be paused; only one named with --queue is looked up (ListQueues counts
    // every queue's jobs).
    if (settings.queue() != null && isPaused(queue)) {
      throw new BenchFailedException(
          "end-to-end: queue "
              + queue
              + " is paused, so no worker would take its jobs; resume it first (bin/antrean queue"
              + " resume "
              + queue
              + ")");
    }
    try (BenchWorkers workers = context.startWorkers(queue, Scenario.END_TO_END)) {
      int warmUp = settings.warmUpJobsFor(jobs);
      if (warmUp > 0) {
        WarmUp.runJobs(context, workers, queue, warmUp);
      }
      QueueWatch watch = new QueueWatch(context.client(), queue);
      AtomicLong enqueued = new AtomicLong();
      long start;
      boolean finished;
      try (ProgressTicker ticker =
          context.progress(() -> progressLine(enqueued.get(), jobs, watch))) {
        if (settings.prefill()) {
          prefill(queue, jobs, enqueued);
          start = System.nanoTime();
          context.client().resumeQueue(queue);
        } else {
          start = System.nanoTime();
          BatchEnqueueScenario.enqueueAll(context, queue, jobs, enqueued);
        }
        finished = watch.awaitFinished(jobs, settings.waitLimit(), workers::throwIfFailed);
      }
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
          Duration.ofNanos(watch.finishedAtNanos() - start),
          null,
          "");
    }
  }

  /**
   * Whether {@code queue} is paused now: left so by an operator, or by a bench that was stopped
   * between its pause and its resume.
   */
  private boolean isPaused(String queue) {
    return context.client().listQueues().stream()
        .anyMatch(info -> info.getName().equals(queue) && info.getPaused());
  }

  /**
   * Pauses the queue and enqueues the jobs into it, so that no worker takes one before the time
   * starts. If the enqueue fails, resumes the queue before passing the failure on.
   */
  private void prefill(String queue, int jobs, AtomicLong enqueued) {
    context.client().pauseQueue(queue);
    try {
      BatchEnqueueScenario.enqueueAll(context, queue, jobs, enqueued);
    } catch (RuntimeException e) {
      try {
        context.client().resumeQueue(queue);
      } catch (RuntimeException resume) {
        e.addSuppressed(resume);
      }
      throw e;
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
