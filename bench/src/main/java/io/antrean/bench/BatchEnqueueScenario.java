package io.antrean.bench;

import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code batch}: N jobs in EnqueueBatch calls of up to 1,000, one call in flight. Also how {@code
 * end-to-end} puts its jobs in.
 */
final class BatchEnqueueScenario {
  /** The most jobs per call: the coordinator's default batch limit. */
  static final int MAX_BATCH_JOBS = 1_000;

  // Stays under gRPC's default 4 MiB message limit whatever --payload-bytes says.
  private static final int MAX_BATCH_BYTES = 3 << 20;
  // What each job adds to the message besides its payload: queue, type, content type, framing.
  private static final int PER_JOB_OVERHEAD_BYTES = 64;

  private final BenchContext context;

  BatchEnqueueScenario(BenchContext context) {
    this.context = context;
  }

  /** Sends the jobs, then drains the queue if asked to; returns the measurement. */
  BenchResult run() throws InterruptedException {
    int jobs = context.settings().jobsFor(Scenario.BATCH);
    String queue = context.settings().queueForScenario();
    AtomicLong enqueued = new AtomicLong();
    long start = System.nanoTime();
    try (ProgressTicker ticker =
        context.progress(
            () -> {
              long done = enqueued.get();
              double seconds = (System.nanoTime() - start) / 1e9;
              return String.format(
                  Locale.ROOT, "batch: %d/%d jobs, %.0f jobs/s", done, jobs, done / seconds);
            })) {
      enqueueAll(context, queue, jobs, enqueued);
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    QueueDrain.afterEnqueueScenario(context, queue, jobs);
    return new BenchResult(Scenario.BATCH, queue, jobs, 1, "-", elapsed, null, "");
  }

  /** How many jobs of {@code payloadBytes} go in one call. */
  static int batchSize(int payloadBytes) {
    int bySize = MAX_BATCH_BYTES / (payloadBytes + PER_JOB_OVERHEAD_BYTES);
    return Math.max(1, Math.min(MAX_BATCH_JOBS, bySize));
  }

  /**
   * Enqueues {@code jobs} untimed bench jobs into {@code queue} in batch calls, one at a time.
   *
   * @param enqueued raised by each batch's size as the coordinator acknowledges it
   * @throws io.antrean.client.AntreanException if a call fails; earlier batches stay enqueued
   */
  static void enqueueAll(BenchContext context, String queue, int jobs, AtomicLong enqueued) {
    EnqueueRequest job = BenchContext.request(queue, context.payload().untimed());
    int size = batchSize(context.payload().untimed().size());
    EnqueueBatchRequest full = batchOf(job, Math.min(size, jobs));
    int left = jobs;
    while (left > 0) {
      EnqueueBatchRequest batch = left >= full.getJobsCount() ? full : batchOf(job, left);
      context.client().enqueueBatch(batch);
      left -= batch.getJobsCount();
      enqueued.addAndGet(batch.getJobsCount());
    }
  }

  private static EnqueueBatchRequest batchOf(EnqueueRequest job, int count) {
    return EnqueueBatchRequest.newBuilder().addAllJobs(Collections.nCopies(count, job)).build();
  }
}
