package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private static final Duration INITIAL = Duration.ofMillis(100);
  private static final Duration MAX = Duration.ofSeconds(1);

  @Test
  void doublesUpToTheCapWithTheHighestJitter() {
    Backoff backoff = new Backoff(INITIAL, MAX, () -> 0.999_999_999);

    assertThat(backoff.nextDelay()).isCloseTo(Duration.ofMillis(100), Duration.ofMillis(1));
    assertThat(backoff.nextDelay()).isCloseTo(Duration.ofMillis(200), Duration.ofMillis(1));
    assertThat(backoff.nextDelay()).isCloseTo(Duration.ofMillis(400), Duration.ofMillis(1));
    assertThat(backoff.nextDelay()).isCloseTo(Duration.ofMillis(800), Duration.ofMillis(1));
    assertThat(backoff.nextDelay()).isCloseTo(MAX, Duration.ofMillis(1));
    assertThat(backoff.nextDelay()).isCloseTo(MAX, Duration.ofMillis(1));
  }

  @Test
  void lowestJitterIsHalfTheStep() {
    Backoff backoff = new Backoff(INITIAL, MAX, () -> 0.0);

    assertThat(backoff.nextDelay()).isEqualTo(Duration.ofMillis(50));
    assertThat(backoff.nextDelay()).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void resetStartsOverAndCountsFailures() {
    Backoff backoff = new Backoff(INITIAL, MAX, () -> 0.0);
    backoff.nextDelay();
    backoff.nextDelay();
    assertThat(backoff.failures()).isEqualTo(2);

    backoff.reset();

    assertThat(backoff.failures()).isZero();
    assertThat(backoff.nextDelay()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void manyFailuresNeverOverflow() {
    Backoff backoff = new Backoff(INITIAL, Duration.ofDays(365), () -> 0.5);
    for (int i = 0; i < 200; i++) {
      assertThat(backoff.nextDelay()).isPositive().isLessThanOrEqualTo(Duration.ofDays(365));
    }
  }

  @Test
  void randomDelaysStayWithinTheirBounds() {
    Backoff backoff = new Backoff(INITIAL, MAX);
    for (int i = 0; i < 50; i++) {
      assertThat(backoff.nextDelay()).isBetween(Duration.ofMillis(50), MAX);
    }
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, MAX))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(MAX, INITIAL))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
