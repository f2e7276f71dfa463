package io.antrean.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The store-backed gauges: one store read per second at most, and none when the store fails. */
@Timeout(10)
class QueueGaugesTest {
  private final AtomicLong nanos = new AtomicLong(1_000);
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicBoolean storeDown = new AtomicBoolean();
  private final PrometheusRegistry registry = new PrometheusRegistry();

  QueueGaugesTest() {
    new QueueGauges(
            () -> {
              reads.incrementAndGet();
              if (storeDown.get()) {
                throw new StoreUnavailableException("closed", null);
              }
              return List.of(
                  new QueueCounts("mail", 4, 1, 2, 10, 3, 0, Duration.ofMillis(1500), 6));
            },
            nanos::get)
        .register(registry);
  }

  @Test
  void scrapesWithinASecondShareOneStoreRead() throws Exception {
    PrometheusText first = scrape();
    scrape();
    nanos.addAndGet(999_000_000);
    scrape();

    assertThat(reads).hasValue(1);
    assertThat(first.value("antrean_queue_depth", "queue", "mail", "state", "pending"))
        .isEqualTo(4);
    assertThat(first.value("antrean_queue_depth", "queue", "mail", "state", "scheduled"))
        .isEqualTo(1);
    assertThat(first.value("antrean_dead_letter_depth", "queue", "mail")).isEqualTo(3);
    assertThat(first.value("antrean_jobs_waiting_on_dependencies", "queue", "mail")).isEqualTo(6);
    assertThat(first.value("antrean_oldest_pending_age_seconds", "queue", "mail")).isEqualTo(1.5);

    nanos.addAndGet(1_000_000);
    scrape();
    assertThat(reads).hasValue(2);
  }

  @Test
  void gaugesAreLeftOutWhenTheStoreFails() throws Exception {
    storeDown.set(true);

    PrometheusText m = scrape();

    assertThat(m.has("antrean_queue_depth")).isFalse();
    assertThat(m.has("antrean_dead_letter_depth")).isFalse();
  }

  private PrometheusText scrape() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape());
    return PrometheusText.parse(out.toString(StandardCharsets.UTF_8));
  }
}
