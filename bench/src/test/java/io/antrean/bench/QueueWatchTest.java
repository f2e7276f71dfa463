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

  @Test
  void pollsSeldomWhileTheEndIsFarAndEveryIntervalAsItNears() {
    long second = TimeUnit.SECONDS.toNanos(1);
    // Nothing finished yet: no rate to project from.
    assertThat(QueueWatch.projectedPause(20_000, 0, second)).isEqualTo(QueueWatch.POLL_INTERVAL);
    // 1,000 of 20,000 in a second: 19 s left, far more than the cap.
    assertThat(QueueWatch.projectedPause(19_000, 1_000, second))
        .isEqualTo(QueueWatch.MAX_PROJECTED_PAUSE);
    // 400 ms left at 5,000 jobs/s: a quarter of it.
    assertThat(QueueWatch.projectedPause(2_000, 5_000, second)).isEqualTo(Duration.ofMillis(100));
    // 20 ms left: back to the interval, so the end stays that precise.
    assertThat(QueueWatch.projectedPause(100, 5_000, second)).isEqualTo(QueueWatch.POLL_INTERVAL);
  }

  @Test
  void aSlowPollThinsThePollsOutsideTheFinalStretchOnly() {
    long second = TimeUnit.SECONDS.toNanos(1);
    long slow = TimeUnit.MILLISECONDS.toNanos(40);
    // 3 s left at 5,000 jobs/s: a 40 ms poll waits ten times as long.
    assertThat(QueueWatch.pause(slow, 15_000, 5_000, second)).isEqualTo(Duration.ofMillis(400));
    // 0.8 s left: the projection alone, a quarter of it.
    assertThat(QueueWatch.pause(slow, 4_000, 5_000, second)).isEqualTo(Duration.ofMillis(200));
    // 20 ms left: every interval, however slow the poll.
    assertThat(QueueWatch.pause(slow, 100, 5_000, second)).isEqualTo(QueueWatch.POLL_INTERVAL);
    // Nothing finished yet: no projection, so the poll's cost decides.
    assertThat(QueueWatch.pause(slow, 20_000, 0, second)).isEqualTo(Duration.ofMillis(400));
  }
}
