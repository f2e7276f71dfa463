package io.antrean.coordinator.metrics;

import io.antrean.coordinator.core.ScheduleEvents;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Schedule fires and misses as Prometheus counters labelled by schedule: {@code
 * antrean_schedule_fires_total} (jobs a schedule enqueued on this coordinator) and {@code
 * antrean_schedule_misses_total} (due times dropped by the misfire or overlap policy). Each
 * coordinator counts the fires it made; sum over coordinators. Thread-safe.
 */
final class PrometheusScheduleEvents implements ScheduleEvents {
  private final Counter fires;
  private final Counter misses;

  PrometheusScheduleEvents(PrometheusRegistry registry) {
    this.fires =
        Counter.builder()
            .name("antrean_schedule_fires_total")
            .help("Jobs enqueued by schedules on this coordinator")
            .labelNames("schedule")
            .withoutExemplars()
            .register(registry);
    this.misses =
        Counter.builder()
            .name("antrean_schedule_misses_total")
            .help("Schedule due times dropped by the misfire or overlap policy")
            .labelNames("schedule")
            .withoutExemplars()
            .register(registry);
  }

  @Override
  public void onFired(String schedule, int jobs) {
    fires.labelValues(schedule).inc(jobs);
  }

  @Override
  public void onMissed(String schedule, long dueTimes) {
    misses.labelValues(schedule).inc(dueTimes);
  }
}
