package io.antrean.coordinator.metrics;

import io.antrean.coordinator.core.ScheduleEvents;
import io.antrean.coordinator.core.SchedulerEvents;
import io.antrean.coordinator.store.QueueCounts;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A coordinator's Prometheus metrics in a registry of their own (never the global one, so several
 * coordinators in one JVM do not collide): the scheduling core's events, call durations, and gauges
 * read from the store's counts at scrape time. Writes the Prometheus text exposition format.
 *
 * <p>Metric names: {@code antrean_jobs_enqueued_total}, {@code antrean_jobs_leased_total}, {@code
 * antrean_jobs_completed_total}, {@code antrean_jobs_failed_total}, {@code
 * antrean_jobs_dead_lettered_total}, {@code antrean_leases_expired_total}, {@code
 * antrean_stale_completions_rejected_total}, {@code antrean_queue_depth}, {@code
 * antrean_oldest_pending_age_seconds}, {@code antrean_dead_letter_depth}, {@code
 * antrean_enqueue_to_start_seconds}, {@code antrean_job_run_seconds}, {@code
 * antrean_rpc_duration_seconds}, {@code antrean_schedule_fires_total}, {@code
 * antrean_schedule_misses_total}, {@code antrean_jobs_held_by_limits} (see {@link #watchLimits});
 * and the Prometheus client's standard JVM and process metrics ({@code jvm_*}, {@code process_*}).
 * Thread-safe.
 */
public final class CoordinatorMetrics {
  /** The content type of {@link #writeText}. */
  public static final String TEXT_CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final PrometheusSchedulerEvents events;
  private final RpcDurations rpc;
  private final PrometheusScheduleEvents scheduleEvents;

  /**
   * @param queueCounts every queue's counts as of now (the store's stats); called at most once a
   *     second, from the scraping thread
   */
  public CoordinatorMetrics(Supplier<List<QueueCounts>> queueCounts) {
    this(queueCounts, System::nanoTime);
  }

  CoordinatorMetrics(Supplier<List<QueueCounts>> queueCounts, LongSupplier nanoTime) {
    this.events = new PrometheusSchedulerEvents(registry);
    this.rpc = new RpcDurations(registry);
    this.scheduleEvents = new PrometheusScheduleEvents(registry);
    new QueueGauges(queueCounts, nanoTime).register(registry);
    JvmMetrics.builder().register(registry);
  }

  /**
   * Adds {@code antrean_jobs_held_by_limits{queue}}: ready jobs the queue's concurrency or rate
   * limits hold back, from {@code held} (the store's count as of now), read at most once a second
   * from the scraping thread.
   */
  public void watchLimits(Supplier<? extends Map<String, Long>> held) {
    new HeldByLimitsGauge(held, System::nanoTime).register(registry);
  }

  /** The listener to give the scheduling core. */
  public SchedulerEvents schedulerEvents() {
    return events;
  }

  /** The listener to give the schedule duty. */
  public ScheduleEvents scheduleEvents() {
    return scheduleEvents;
  }

  /** Where gRPC and HTTP calls are timed. */
  public RpcDurations rpcDurations() {
    return rpc;
  }

  /** Scrapes every metric and writes them in the Prometheus text format (version 0.0.4). */
  public void writeText(OutputStream out) throws IOException {
    writer.write(out, registry.scrape());
  }
}
