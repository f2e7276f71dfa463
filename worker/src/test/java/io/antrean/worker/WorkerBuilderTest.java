package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkerBuilderTest {
  private static final JobHandler NOTHING = ctx -> null;

  private static WorkerBuilder minimal() {
    return Worker.builder().coordinator("127.0.0.1:1").handler("t", NOTHING);
  }

  @Test
  void buildsWithDefaultsFromATargetAndOneHandler() throws InterruptedException {
    Worker worker = minimal().build();

    assertThat(worker.workerId()).matches(".+-\\d+-[0-9a-f]{6}");
    assertThat(worker.heldLeases()).isZero();
    worker.shutdown();
    assertThat(worker.awaitTermination(Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void keepsAnExplicitWorkerId() throws InterruptedException {
    Worker worker = minimal().workerId("w-1").build();

    assertThat(worker.workerId()).isEqualTo("w-1");
    worker.shutdown();
    assertThat(worker.awaitTermination(Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void requiresACoordinator() {
    assertThatThrownBy(() -> Worker.builder().handler("t", NOTHING).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("coordinator");
  }

  @Test
  void requiresAHandler() {
    assertThatThrownBy(() -> Worker.builder().coordinator("h:1").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("handler");
  }

  @Test
  void rejectsOutOfRangeSettingsNamingThem() {
    assertThatThrownBy(() -> minimal().concurrency(0).build()).hasMessageContaining("concurrency");
    assertThatThrownBy(() -> minimal().concurrency(1025).build())
        .hasMessageContaining("concurrency");
    assertThatThrownBy(() -> minimal().prefetch(-1).build())
        .hasMessageContaining("prefetch must be 0 to 1024: -1");
    assertThatThrownBy(() -> minimal().prefetch(1025).build())
        .hasMessageContaining("prefetch must be 0 to 1024: 1025");
    assertThatThrownBy(() -> minimal().concurrency(600).prefetch(600).build())
        .hasMessageContaining("concurrency + prefetch must be at most 1024")
        .hasMessageContaining("600 + 600");
    assertThatThrownBy(() -> minimal().leaseTtl(Duration.ZERO).build())
        .hasMessageContaining("leaseTtl");
    assertThatThrownBy(() -> minimal().leaseTtl(Duration.ofMinutes(30)).build())
        .hasMessageContaining("leaseTtl must be at most 10 min");
    assertThat(minimal().leaseTtl(Duration.ofMinutes(10)).settings().leaseTtl())
        .isEqualTo(Duration.ofMinutes(10));
    assertThatThrownBy(
            () ->
                minimal()
                    .leaseTtl(Duration.ofSeconds(5))
                    .heartbeatInterval(Duration.ofSeconds(5))
                    .build())
        .hasMessageContaining("heartbeatInterval");
    assertThatThrownBy(() -> minimal().pollWait(Duration.ofSeconds(61)).build())
        .hasMessageContaining("pollWait");
    assertThatThrownBy(() -> minimal().shutdownGrace(Duration.ofSeconds(-1)).build())
        .hasMessageContaining("shutdownGrace");
    assertThatThrownBy(
            () -> minimal().pollBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)).build())
        .hasMessageContaining("pollBackoff");
  }

  @Test
  void byDefaultTheHandlerThreadsAndThePrefetchTogetherHoldWhatOneHeartbeatCarries() {
    assertThat(minimal().settings().prefetch()).isEqualTo(4);
    assertThat(minimal().concurrency(512).settings().prefetch()).isEqualTo(512);
    assertThat(minimal().concurrency(600).settings().prefetch()).isEqualTo(424);
    assertThat(minimal().concurrency(1024).settings().prefetch()).isZero();
    assertThat(minimal().concurrency(600).prefetch(100).settings().prefetch()).isEqualTo(100);
  }

  @Test
  void aWorkerIdStaysWithinWhatACoordinatorTakes() {
    assertThatThrownBy(() -> minimal().workerId("w".repeat(257)).build())
        .hasMessageContaining("workerId must be at most 256 characters");
    assertThat(minimal().workerId("w".repeat(256)).settings().workerId()).hasSize(256);
    String longHost = "h".repeat(300);
    assertThat(WorkerBuilder.defaultWorkerId(longHost))
        .startsWith("h".repeat(200) + "-")
        .hasSizeLessThanOrEqualTo(256);
  }

  @Test
  void rejectsBlankNames() {
    assertThatThrownBy(() -> Worker.builder().handler(" ", NOTHING))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Worker.builder().queue(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Worker.builder().workerId(""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void retryableExceptionRejectsNegativeRetryAfter() {
    assertThatThrownBy(() -> new RetryableException("x", Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new RetryableException("x").retryAfter()).isEmpty();
    assertThat(new RetryableException("x", Duration.ofSeconds(3)).retryAfter())
        .contains(Duration.ofSeconds(3));
  }
}
