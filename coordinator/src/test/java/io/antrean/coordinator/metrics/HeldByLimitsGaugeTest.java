package io.antrean.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.store.StoreUnavailableException;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The held-by-limits gauge: the store's count per queue, read at most once a second. */
@Timeout(10)
class HeldByLimitsGaugeTest {
  private final AtomicLong nanos = new AtomicLong(1_000);
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicBoolean storeDown = new AtomicBoolean();
  private final PrometheusRegistry registry = new PrometheusRegistry();

  HeldByLimitsGaugeTest() {
    new HeldByLimitsGauge(
            () -> {
              reads.incrementAndGet();
              if (storeDown.get()) {
                throw new StoreUnavailableException("closed", null);
              }
              return Map.of("tenants", 7L);
            },
            nanos::get)
        .register(registry);
  }

  @Test
  void eachLimitedQueueIsALabelAndScrapesWithinASecondShareOneRead() throws Exception {
    PrometheusText first = scrape();
    scrape();

    assertThat(first.value("antrean_jobs_held_by_limits", "queue", "tenants")).isEqualTo(7);
    assertThat(reads).hasValue(1);
    nanos.addAndGet(1_000_000_000);
    scrape();
    assertThat(reads).hasValue(2);
  }

  @Test
  void aStoreThatCannotAnswerLeavesTheGaugeOut() throws Exception {
    storeDown.set(true);

    assertThat(scrape().value("antrean_jobs_held_by_limits", "queue", "tenants")).isNull();
  }

  private PrometheusText scrape() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape());
    return PrometheusText.parse(out.toString(StandardCharsets.UTF_8));
  }
}
