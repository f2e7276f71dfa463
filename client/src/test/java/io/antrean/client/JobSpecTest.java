package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.util.Durations;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JobSpecTest {

  @Test
  void onlyTheTypeIsSetWhenNothingElseIs() {
    EnqueueRequest request = JobSpec.builder("email.send").build().toRequest();

    assertThat(request).isEqualTo(EnqueueRequest.newBuilder().setType("email.send").build());
    assertThat(request.hasRetryPolicy()).isFalse();
  }

  @Test
  void everySetterLandsInTheRequest() {
    EnqueueRequest request =
        JobSpec.builder("flaky")
            .queue("q1")
            .jsonPayload("{\"failures\":2}")
            .priority(-3)
            .delay(Duration.ofMillis(1500))
            .idempotencyKey("k-1")
            .maxAttempts(5)
            .backoff(Duration.ofMillis(200), Duration.ofSeconds(1))
            .backoffMultiplier(3.0)
            .build()
            .toRequest();

    assertThat(request.getQueue()).isEqualTo("q1");
    assertThat(request.getPayload().toString(StandardCharsets.UTF_8)).isEqualTo("{\"failures\":2}");
    assertThat(request.getContentType()).isEqualTo("application/json");
    assertThat(request.getPriority()).isEqualTo(-3);
    assertThat(request.getDelay()).isEqualTo(Durations.fromMillis(1500));
    assertThat(request.getIdempotencyKey()).isEqualTo("k-1");
    assertThat(request.getRetryPolicy())
        .isEqualTo(
            RetryPolicy.newBuilder()
                .setMaxAttempts(5)
                .setInitialBackoff(Durations.fromMillis(200))
                .setMaxBackoff(Durations.fromSeconds(1))
                .setBackoffMultiplier(3.0)
                .build());
  }

  @Test
  void dependenciesAndTheirFailurePolicyLandInTheRequest() {
    EnqueueRequest request =
        JobSpec.builder("report.merge")
            .dependsOn(15, 16)
            .dependsOn(17)
            .onDependencyFailure(DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER)
            .build()
            .toRequest();

    assertThat(request.getDependsOnList()).containsExactly(15L, 16L, 17L);
    assertThat(request.getOnDependencyFailure())
        .isEqualTo(DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER);
  }

  @Test
  void runAtAndDelayReplaceEachOther() {
    Instant at = Instant.parse("2030-01-02T03:04:05.123456789Z");

    EnqueueRequest runAt =
        JobSpec.builder("t").delay(Duration.ofSeconds(1)).runAt(at).build().toRequest();
    EnqueueRequest delay =
        JobSpec.builder("t").runAt(at).delay(Duration.ofSeconds(1)).build().toRequest();

    assertThat(runAt.hasDelay()).isFalse();
    assertThat(runAt.getRunAt().getSeconds()).isEqualTo(at.getEpochSecond());
    assertThat(runAt.getRunAt().getNanos()).isEqualTo(123456789);
    assertThat(delay.hasRunAt()).isFalse();
  }

  @Test
  void aWholeProtoRetryPolicyReplacesTheSetters() {
    RetryPolicy policy = RetryPolicy.newBuilder().setMaxLeaseExpiries(2).build();

    RetryPolicy built =
        JobSpec.builder("t")
            .maxAttempts(4)
            .retryPolicy(policy)
            .build()
            .toRequest()
            .getRetryPolicy();

    assertThat(built).isEqualTo(policy);
  }

  @Test
  void theBuilderCanBeReusedWithoutChangingBuiltSpecs() {
    JobSpec.Builder builder = JobSpec.builder("t").priority(1);
    JobSpec first = builder.build();

    builder.priority(2);

    assertThat(first.toRequest().getPriority()).isEqualTo(1);
    assertThat(builder.build().toRequest().getPriority()).isEqualTo(2);
  }

  @Test
  void badValuesAreRejectedWithTheirName() {
    assertThatThrownBy(() -> JobSpec.builder(" ")).hasMessageContaining("type");
    assertThatThrownBy(() -> JobSpec.builder("t").queue("")).hasMessageContaining("queue");
    assertThatThrownBy(() -> JobSpec.builder("t").delay(Duration.ofSeconds(-1)))
        .hasMessageContaining("delay");
    assertThatThrownBy(() -> JobSpec.builder("t").maxAttempts(0))
        .hasMessageContaining("maxAttempts");
    assertThatThrownBy(
            () -> JobSpec.builder("t").backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("backoff");
    assertThatThrownBy(() -> JobSpec.builder("t").backoffMultiplier(0.5))
        .hasMessageContaining("multiplier");
  }
}
