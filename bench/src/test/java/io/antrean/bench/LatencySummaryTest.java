package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LatencySummaryTest {

  @Test
  void percentilesOfOneToAHundredAreThoseValues() {
    LatencySummary summary = LatencySummary.ofSorted(LongStream.rangeClosed(1, 100).toArray());

    assertThat(summary).isEqualTo(new LatencySummary(100, 50, 90, 99, 100));
  }

  @Test
  void nearestRankRoundsTheRankUp() {
    long[] three = {10, 20, 30};

    assertThat(LatencySummary.percentile(three, 500)).isEqualTo(20);
    assertThat(LatencySummary.percentile(three, 900)).isEqualTo(30);
    assertThat(LatencySummary.percentile(three, 333)).isEqualTo(10);
    assertThat(LatencySummary.percentile(three, 334)).isEqualTo(20);
    assertThat(LatencySummary.percentile(three, 1)).isEqualTo(10);
    assertThat(LatencySummary.percentile(three, 1000)).isEqualTo(30);
  }

  @Test
  void ninetyNinthPercentileOfAThousandIsTheNineHundredNinetiethValueExactly() {
    long[] values = LongStream.rangeClosed(1, 1000).toArray();

    assertThat(LatencySummary.percentile(values, 990)).isEqualTo(990);
    assertThat(LatencySummary.percentile(values, 500)).isEqualTo(500);
  }

  @Test
  void oneValueIsEveryPercentile() {
    assertThat(LatencySummary.ofSorted(new long[] {7}))
        .isEqualTo(new LatencySummary(1, 7, 7, 7, 7));
  }

  @Test
  void anEmptySampleOrABadPercentileIsRefused() {
    assertThatThrownBy(() -> LatencySummary.ofSorted(new long[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no latencies were measured");
    assertThatThrownBy(() -> LatencySummary.percentile(new long[] {1}, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LatencySummary.percentile(new long[] {1}, 1001))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void samplesAreSortedBeforeTheSummaryAndNegativeOnesCountAsZero() {
    LatencySamples samples = new LatencySamples(2);
    for (long value : new long[] {5, 3, -2, 9, 1}) {
      samples.record(value);
    }

    assertThat(samples.summary()).isEqualTo(new LatencySummary(5, 3, 9, 9, 9));
    assertThat(samples.count()).isEqualTo(5);
  }

  @Test
  void samplesFromManyThreadsAreAllKept() throws InterruptedException {
    LatencySamples samples = new LatencySamples(16);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch done = new CountDownLatch(4);
    for (int t = 0; t < 4; t++) {
      pool.execute(
          () -> {
            for (int i = 1; i <= 1000; i++) {
              samples.record(i);
            }
            done.countDown();
          });
    }

    assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
    pool.shutdown();
    assertThat(samples.summary()).isEqualTo(new LatencySummary(4000, 500, 900, 990, 1000));
  }
}
