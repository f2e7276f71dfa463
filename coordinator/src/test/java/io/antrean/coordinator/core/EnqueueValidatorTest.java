package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EnqueueValidatorTest {
  private static final Instant NOW = Instant.parse("2026-11-30T10:00:00.123456789Z");
  private static final byte[] JSON = "{}".getBytes(StandardCharsets.UTF_8);

  private final EnqueueValidator open = new EnqueueValidator(Settings.defaults());

  @Test
  void appliesDefaults() {
    NewJob job = open.toNewJob(EnqueueCommand.of("", "email.send", JSON), NOW);
    assertThat(job.queue()).isEqualTo("default");
    assertThat(job.contentType()).isEqualTo("application/json");
    assertThat(job.runAt()).isEqualTo(Instant.parse("2026-11-30T10:00:00.123456Z"));
    assertThat(job.retryPolicy()).isEqualTo(RetryPolicy.DEFAULT);
    assertThat(job.idempotencyKey()).isNull();
  }

  @Test
  void reportsEveryFaultWithItsField() {
    EnqueueCommand bad =
        new EnqueueCommand(
            "bad queue!",
            "",
            new byte[(1 << 20) + 1],
            "",
            0,
            null,
            Duration.ofSeconds(-1),
            "",
            new RetryOverride(0, Duration.ofSeconds(-1), 0.5, null, 0),
            "0".repeat(513));
    assertThatThrownBy(() -> open.toNewJob(bad, NOW))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e ->
                assertThat(e.violations())
                    .extracting(FieldViolation::field)
                    .containsExactlyInAnyOrder(
                        "queue",
                        "type",
                        "payload",
                        "delay",
                        "retry_policy.max_attempts",
                        "retry_policy.initial_backoff",
                        "retry_policy.backoff_multiplier",
                        "retry_policy.max_lease_expiries",
                        "trace_parent"));
  }

  @Test
  void aTraceParentIsCarriedAndEmptyMeansNone() {
    String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    EnqueueCommand traced =
        new EnqueueCommand("", "t", JSON, "", 0, null, null, "", RetryOverride.NONE, parent);
    assertThat(open.toNewJob(traced, NOW).traceParent()).isEqualTo(parent);
    assertThat(open.toNewJob(EnqueueCommand.of("", "t", JSON), NOW).traceParent()).isNull();
    EnqueueCommand longest =
        new EnqueueCommand(
            "", "t", JSON, "", 0, null, null, "", RetryOverride.NONE, "0".repeat(512));
    assertThat(open.toNewJob(longest, NOW).traceParent()).hasSize(512);
  }

  @Test
  void unknownTypeIsRejectedWhenTypesAreDeclared() {
    EnqueueValidator declared =
        new EnqueueValidator(
            Settings.defaults().withJobTypes(Set.of("email.send"), Map.of(), Map.of()));
    assertThatThrownBy(() -> declared.toNewJob(EnqueueCommand.of("", "send-fax", JSON), NOW))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e ->
                assertThat(e.violations())
                    .containsExactly(new FieldViolation("type", "unknown job type: send-fax")));
    assertThat(declared.toNewJob(EnqueueCommand.of("", "email.send", JSON), NOW).type())
        .isEqualTo("email.send");
  }

  @Test
  void typeDefaultsWinOverQueueDefaultsAndTheRequestWinsOverBoth() {
    RetryOverride byQueue =
        new RetryOverride(7, Duration.ofSeconds(2), 2.0, Duration.ofMinutes(1), 3);
    RetryOverride byType =
        new RetryOverride(9, Duration.ofSeconds(3), 3.0, Duration.ofMinutes(2), 2);
    EnqueueValidator v =
        new EnqueueValidator(
            Settings.defaults()
                .withJobTypes(Set.of(), Map.of("report.build", byType), Map.of("q", byQueue)));
    assertThat(v.toNewJob(EnqueueCommand.of("q", "email.send", JSON), NOW).retryPolicy())
        .isEqualTo(new RetryPolicy(7, Duration.ofSeconds(2), 2, Duration.ofMinutes(1), 3));
    assertThat(v.toNewJob(EnqueueCommand.of("q", "report.build", JSON), NOW).retryPolicy())
        .isEqualTo(new RetryPolicy(9, Duration.ofSeconds(3), 3, Duration.ofMinutes(2), 2));
    EnqueueCommand override =
        new EnqueueCommand(
            "q",
            "report.build",
            JSON,
            "",
            0,
            null,
            null,
            "",
            new RetryOverride(2, null, null, null, null),
            "");
    assertThat(v.toNewJob(override, NOW).retryPolicy().maxAttempts()).isEqualTo(2);
    assertThat(v.toNewJob(override, NOW).retryPolicy().maxLeaseExpiries()).isEqualTo(2);
  }

  @Test
  void idempotencyKeyIsRememberedForTheWindow() {
    EnqueueCommand keyed =
        new EnqueueCommand("", "t", JSON, "", 0, null, null, "order-42", RetryOverride.NONE, "");
    NewJob job = open.toNewJob(keyed, NOW);
    assertThat(job.idempotencyKey()).isEqualTo("order-42");
    assertThat(job.idempotencyExpiresAt()).isEqualTo(NOW.plus(Duration.ofHours(24)));
  }

  @Test
  void batchFaultsAreNamedByIndexAndSizeIsLimited() {
    List<EnqueueCommand> cmds =
        List.of(EnqueueCommand.of("", "ok", JSON), EnqueueCommand.of("", "", JSON));
    assertThatThrownBy(() -> open.toNewJobs(cmds, NOW))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e ->
                assertThat(e.violations())
                    .extracting(FieldViolation::field)
                    .containsExactly("jobs[1].type"));
    assertThatThrownBy(() -> open.toNewJobs(List.of(), NOW))
        .isInstanceOf(ValidationException.class);
    List<EnqueueCommand> tooMany = Collections.nCopies(1001, EnqueueCommand.of("", "t", JSON));
    assertThatThrownBy(() -> open.toNewJobs(tooMany, NOW))
        .hasMessageContaining("at most 1000 jobs per batch");
  }
}
