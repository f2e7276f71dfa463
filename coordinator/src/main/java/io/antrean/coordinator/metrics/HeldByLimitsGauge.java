package io.antrean.coordinator.metrics;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code antrean_jobs_held_by_limits{queue}}: for each queue with concurrency or rate limits, the
 * ready jobs its limits hold back now. Read from the store when scraped, at most once per {@link
 * #MAX_AGE}; left out of a scrape (with a warning) when the store cannot answer. Thread-safe.
 */
final class HeldByLimitsGauge {
  static final Duration MAX_AGE = Duration.ofSeconds(1);
  private static final Logger log = LoggerFactory.getLogger(HeldByLimitsGauge.class);

  private final Supplier<? extends Map<String, Long>> source;
  private final LongSupplier nanoTime;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private Map<String, Long> cached = Map.of();

  @GuardedBy("lock")
  private long fetchedAtNanos;

  @GuardedBy("lock")
  private boolean fetched;

  HeldByLimitsGauge(Supplier<? extends Map<String, Long>> source, LongSupplier nanoTime) {
    this.source = source;
    this.nanoTime = nanoTime;
  }

  void register(PrometheusRegistry registry) {
    GaugeWithCallback.builder()
        .name("antrean_jobs_held_by_limits")
        .help("Ready jobs that their queue's concurrency or rate limits hold back now")
        .labelNames("queue")
        .callback(cb -> held().forEach((queue, count) -> cb.call(count, queue)))
        .register(registry);
  }

  Map<String, Long> held() {
    synchronized (lock) {
      long now = nanoTime.getAsLong();
      if (fetched && now - fetchedAtNanos < MAX_AGE.toNanos()) {
        return cached;
      }
      try {
        cached = Map.copyOf(source.get());
      } catch (RuntimeException e) {
        log.warn("held-by-limits gauge left out of this scrape: the store did not answer", e);
        cached = Map.of();
      }
      fetched = true;
      fetchedAtNanos = now;
      return cached;
    }
  }
}
