package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class KeeperTickTest {
  @Test
  void theDefaultLeaseIsCheckedOnceASecondInsteadOfTenTimes() {
    assertThat(WorkerRuntime.keeperTickMillis(Duration.ofSeconds(10), Duration.ofSeconds(30)))
        .isEqualTo(1_000);
  }

  @Test
  void shortLeasesAreCheckedWithinATenthOfTheirTtlAndAQuarterOfTheInterval() {
    assertThat(WorkerRuntime.keeperTickMillis(Duration.ofSeconds(2), Duration.ofSeconds(5)))
        .isEqualTo(500);
    assertThat(WorkerRuntime.keeperTickMillis(Duration.ofSeconds(1), Duration.ofSeconds(5)))
        .isEqualTo(250);
    assertThat(WorkerRuntime.keeperTickMillis(Duration.ofMillis(100), Duration.ofMillis(300)))
        .isEqualTo(25);
  }

  @Test
  void theTickNeverDropsBelowFiveMilliseconds() {
    assertThat(WorkerRuntime.keeperTickMillis(Duration.ofMillis(8), Duration.ofMillis(20)))
        .isEqualTo(5);
  }
}
