package io.antrean.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Schedule fires and misses as Prometheus counters. */
class ScheduleMetricsTest {
  @Test
  void firesAndMissesAreCountedPerSchedule() throws Exception {
    CoordinatorMetrics metrics = new CoordinatorMetrics(List::of);

    metrics.scheduleEvents().onFired("nightly", 1);
    metrics.scheduleEvents().onFired("nightly", 2);
    metrics.scheduleEvents().onMissed("tick", 7);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text)
        .contains("antrean_schedule_fires_total{schedule=\"nightly\"} 3.0")
        .contains("antrean_schedule_misses_total{schedule=\"tick\"} 7.0");
  }
}
