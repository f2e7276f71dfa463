package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Retry defaults layer per field: request over type over queue over built-in. */
class RetryOverrideTest {
  private static final RetryOverride TYPE =
      new RetryOverride(null, Duration.ofSeconds(2), null, null, 4);
  private static final RetryOverride QUEUE =
      new RetryOverride(6, Duration.ofSeconds(3), null, Duration.ofSeconds(60), null);

  @Test
  void theUpperLayerWinsPerFieldAndUnsetFieldsFallThrough() {
    assertThat(TYPE.over(QUEUE))
        .isEqualTo(new RetryOverride(6, Duration.ofSeconds(2), null, Duration.ofSeconds(60), 4));
    assertThat(TYPE.over(QUEUE).applyTo(RetryPolicy.DEFAULT))
        .isEqualTo(new RetryPolicy(6, Duration.ofSeconds(2), 2.0, Duration.ofSeconds(60), 4));
    assertThat(RetryOverride.NONE.applyTo(RetryPolicy.DEFAULT)).isEqualTo(RetryPolicy.DEFAULT);
  }

  @Test
  void aRequestOverridesOneFieldAndKeepsTheLayersOfTheOthers() {
    EnqueueValidator v =
        new EnqueueValidator(
            Settings.defaults().withJobTypes(Set.of(), Map.of("t", TYPE), Map.of("q", QUEUE)));
    EnqueueCommand cmd =
        new EnqueueCommand(
            "q",
            "t",
            "{}".getBytes(StandardCharsets.UTF_8),
            "",
            0,
            null,
            null,
            "",
            new RetryOverride(null, null, 5.0, null, null),
            "");

    assertThat(v.toNewJob(cmd, Instant.parse("2026-03-01T12:00:00Z")).retryPolicy())
        .isEqualTo(new RetryPolicy(6, Duration.ofSeconds(2), 5.0, Duration.ofSeconds(60), 4));
  }
}
