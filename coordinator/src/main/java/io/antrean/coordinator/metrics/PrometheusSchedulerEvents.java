package io.antrean.coordinator.metrics;

import io.antrean.coordinator.core.SchedulerEvents;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.annotation.Nullable;

/**
 * Counts what the scheduling core reports as Prometheus counters and histograms: jobs enqueued,
 * leased, completed, failed (by kind) and dead-lettered per queue; expired leases by recovery path;
 * stale calls rejected; enqueue-to-start latency and run time per queue.
 *
 * <p>Enqueue-to-start is observed on the first lease of a job's life ({@code attempts == 1}), from
 * the later of its creation and its run time, so a delayed job's delay is not counted as waiting. A
 * job handed back by Release before it ran is leased with {@code attempts == 1} again and observed
 * again. Run time is observed only for leases this coordinator granted.
 *
 * <p>The hot path is one map lookup per call: each queue's series are created on first use and kept
 * (see {@link QueueSeries}). Thread-safe.
 */
public final class PrometheusSchedulerEvents implements SchedulerEvents {
  private static final double[] LATENCY_BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300,
    900, 3600
  };
  private static final double[] RUN_BUCKETS = {
    0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600
  };

  private final ConcurrentMap<String, QueueSeries> queues = new ConcurrentHashMap<>();
  private final QueueSeries.Family family;
  private final CounterDataPoint expiredByTimer;
  private final CounterDataPoint expiredBySweep;
  private final Counter staleRejected;

  /** Registers the metrics in {@code registry}. */
  public PrometheusSchedulerEvents(PrometheusRegistry registry) {
    this.family =
        new QueueSeries.Family(
            counter(registry, "antrean_jobs_enqueued_total", "Jobs stored by Enqueue", "queue"),
            counter(registry, "antrean_jobs_leased_total", "Jobs handed to workers", "queue"),
            counter(registry, "antrean_jobs_completed_total", "Jobs that succeeded", "queue"),
            counter(
                registry,
                "antrean_jobs_failed_total",
                "Failed attempts reported by workers, by kind (retryable or permanent)",
                "queue",
                "kind"),
            counter(
                registry,
                "antrean_jobs_dead_lettered_total",
                "Jobs that entered the dead-letter queue",
                "queue"),
            Histogram.builder()
                .name("antrean_enqueue_to_start_seconds")
                .help("From enqueue (or the run time, if later) to the first lease")
                .labelNames("queue")
                .classicOnly()
                .classicUpperBounds(LATENCY_BUCKETS)
                .withoutExemplars()
                .register(registry),
            Histogram.builder()
                .name("antrean_job_run_seconds")
                .help("From lease to Complete or Fail, by outcome")
                .labelNames("queue", "outcome")
                .classicOnly()
                .classicUpperBounds(RUN_BUCKETS)
                .withoutExemplars()
                .register(registry));
    Counter expired =
        counter(
            registry,
            "antrean_leases_expired_total",
            "Expired leases taken back, by path: timer (main) or sweep (backup)",
            "path");
    this.expiredByTimer = expired.labelValues("timer");
    this.expiredBySweep = expired.labelValues("sweep");
    this.staleRejected =
        Counter.builder()
            .name("antrean_stale_completions_rejected_total")
            .help(
                "Calls with a lease the worker no longer held (stale fencing token); nothing changed")
            .withoutExemplars()
            .register(registry);
  }

  private static Counter counter(
      PrometheusRegistry registry, String name, String help, String... labels) {
    return Counter.builder()
        .name(name)
        .help(help)
        .labelNames(labels)
        .withoutExemplars()
        .register(registry);
  }

  private QueueSeries queue(String name) {
    QueueSeries series = queues.get(name);
    return series != null ? series : queues.computeIfAbsent(name, family::forQueue);
  }

  @Override
  public void onEnqueued(Job job) {
    queue(job.queue()).enqueued().inc();
  }

  @Override
  public void onLeased(Job job, Instant leasedAt) {
    QueueSeries q = queue(job.queue());
    q.leased().inc();
    if (job.attempts() == 1) {
      Instant ready = job.runAt().isAfter(job.createdAt()) ? job.runAt() : job.createdAt();
      q.enqueueToStart().observe(seconds(Duration.between(ready, leasedAt)));
    }
  }

  @Override
  public void onCompleted(long jobId, String queue, @Nullable Duration runTime) {
    QueueSeries q = queue(queue);
    q.completed().inc();
    if (runTime != null) {
      q.runSucceeded().observe(seconds(runTime));
    }
  }

  @Override
  public void onFailed(Job job, ErrorKind kind, @Nullable Duration runTime) {
    QueueSeries q = queue(job.queue());
    boolean permanent = kind == ErrorKind.PERMANENT;
    (permanent ? q.failedPermanent() : q.failedRetryable()).inc();
    if (runTime != null) {
      (permanent ? q.runFailedPermanent() : q.runFailedRetryable()).observe(seconds(runTime));
    }
  }

  @Override
  public void onDeadLettered(Job job) {
    queue(job.queue()).deadLettered().inc();
  }

  @Override
  public void onLeasesExpired(LeaseExpiryPath path, int count) {
    (path == LeaseExpiryPath.TIMER ? expiredByTimer : expiredBySweep).inc(count);
  }

  @Override
  public void onStaleRejected() {
    staleRejected.inc();
  }

  private static double seconds(Duration d) {
    return Math.max(0, d.toNanos() / 1e9);
  }
}
