package io.antrean.coordinator.metrics;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.antrean.coordinator.store.QueueCounts;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges read from the store's per-queue counts when scraped: {@code antrean_queue_depth{queue,
 * state}}, {@code antrean_oldest_pending_age_seconds{queue}}, {@code
 * antrean_jobs_waiting_on_dependencies{queue}} and {@code antrean_dead_letter_depth{queue}}. The
 * counts are fetched at most once per {@link #MAX_AGE}, so the four gauges (and scrapes close
 * together) share one store read. When the store cannot answer, the gauges are left out of that
 * scrape and a warning is logged. Thread-safe.
 */
final class QueueGauges {
  static final Duration MAX_AGE = Duration.ofSeconds(1);
  private static final Logger log = LoggerFactory.getLogger(QueueGauges.class);

  private final Supplier<List<QueueCounts>> source;
  private final LongSupplier nanoTime;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private List<QueueCounts> cached = List.of();

  @GuardedBy("lock")
  private long fetchedAtNanos;

  @GuardedBy("lock")
  private boolean fetched;

  /**
   * @param source the counts of every queue (the store's stats as of now)
   * @param nanoTime a monotonic clock, {@code System::nanoTime} outside tests
   */
  QueueGauges(Supplier<List<QueueCounts>> source, LongSupplier nanoTime) {
    this.source = source;
    this.nanoTime = nanoTime;
  }

  void register(PrometheusRegistry registry) {
    GaugeWithCallback.builder()
        .name("antrean_queue_depth")
        .help("Jobs per queue and state (pending means ready now; scheduled means due later)")
        .labelNames("queue", "state")
        .callback(
            cb -> {
              for (QueueCounts c : counts()) {
                cb.call(c.pending(), c.queue(), "pending");
                cb.call(c.scheduled(), c.queue(), "scheduled");
                cb.call(c.running(), c.queue(), "running");
                cb.call(c.succeeded(), c.queue(), "succeeded");
                cb.call(c.failed(), c.queue(), "failed");
                cb.call(c.cancelled(), c.queue(), "cancelled");
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("antrean_oldest_pending_age_seconds")
        .help("How long the oldest ready pending job of each queue has waited since its run time")
        .labelNames("queue")
        .callback(
            cb -> counts().forEach(c -> cb.call(c.oldestPendingAge().toNanos() / 1e9, c.queue())))
        .register(registry);
    GaugeWithCallback.builder()
        .name("antrean_jobs_waiting_on_dependencies")
        .help("Jobs per queue WAITING for the jobs they depend on (depends_on)")
        .labelNames("queue")
        .callback(cb -> counts().forEach(c -> cb.call(c.waiting(), c.queue())))
        .register(registry);
    GaugeWithCallback.builder()
        .name("antrean_dead_letter_depth")
        .help("Jobs in the dead-letter queue (FAILED) per queue")
        .labelNames("queue")
        .callback(cb -> counts().forEach(c -> cb.call(c.failed(), c.queue())))
        .register(registry);
  }

  /** The counts, fetched again when older than {@link #MAX_AGE}; empty if the store failed. */
  List<QueueCounts> counts() {
    synchronized (lock) {
      long now = nanoTime.getAsLong();
      if (fetched && now - fetchedAtNanos < MAX_AGE.toNanos()) {
        return cached;
      }
      try {
        cached = List.copyOf(source.get());
      } catch (RuntimeException e) {
        log.warn("queue gauges left out of this scrape: the store did not answer", e);
        cached = List.of();
      }
      fetched = true;
      fetchedAtNanos = now;
      return cached;
    }
  }
}
