package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class QueueWatchTest {

  @Test
  void pollsNoMoreOftenThanTheIntervalAndBacksOffWhenGetStatsIsSlow() {
    assertThat(QueueWatch.pauseAfter(TimeUnit.MICROSECONDS.toNanos(300)))
        .isEqualTo(QueueWatch.POLL_INTERVAL);
    assertThat(QueueWatch.pauseAfter(TimeUnit.MILLISECONDS.toNanos(12)))
        .isEqualTo(Duration.ofMillis(12L * QueueWatch.POLL_COST_FACTOR));
  }
}
