package io.antrean.coordinator.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.store.RateLimit;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TokenBucketTest {
  private static final RateLimit FOUR_PER_SECOND = new RateLimit(4, Duration.ofSeconds(1));

  @Test
  void aNewBucketIsFullAndRefillsEvenlyUpToItsSize() {
    TokenBucket empty = TokenBucket.full(FOUR_PER_SECOND, 0).take(4);

    assertThat(empty.whole()).isZero();
    assertThat(empty.refill(FOUR_PER_SECOND, 249_999).whole()).isZero();
    assertThat(empty.refill(FOUR_PER_SECOND, 250_000).whole()).isEqualTo(1);
    assertThat(empty.refill(FOUR_PER_SECOND, 10_000_000).tokens()).isEqualTo(4.0);
  }

  @Test
  void aTimeBeforeTheLastWriteRefillsNothingAndKeepsTheLaterTime() {
    TokenBucket written = new TokenBucket(0.5, 1_000_000);

    TokenBucket earlier = written.refill(FOUR_PER_SECOND, 900_000);

    assertThat(earlier).isEqualTo(new TokenBucket(0.5, 1_000_000));
  }

  @Test
  void theNextWholeTokenIsDueWhenTheRefillMakesUpWhatIsMissing() {
    TokenBucket empty = TokenBucket.full(FOUR_PER_SECOND, 1_000_000).take(4);

    assertThat(empty.nextWholeAtMicros(FOUR_PER_SECOND)).isEqualTo(1_250_000);
    assertThat(new TokenBucket(0.5, 0).nextWholeAtMicros(FOUR_PER_SECOND)).isEqualTo(125_000);
    assertThat(new TokenBucket(1.0, 7).nextWholeAtMicros(FOUR_PER_SECOND))
        .as("a bucket that has a token: now")
        .isEqualTo(7);
    long due = empty.nextWholeAtMicros(FOUR_PER_SECOND);
    assertThat(empty.refill(FOUR_PER_SECOND, due).whole()).isEqualTo(1);
  }

  @Test
  void takingMoreThanItsWholeTokensIsABug() {
    assertThatThrownBy(() -> new TokenBucket(1.9, 0).take(2))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rateLimitsOutOfRangeAreRefused() {
    assertThatThrownBy(() -> new RateLimit(0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RateLimit(1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RateLimit(1, Duration.ofDays(2)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
