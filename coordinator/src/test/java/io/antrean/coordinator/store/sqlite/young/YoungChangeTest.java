package io.antrean.coordinator.store.sqlite.young;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Created;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Extended;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Leased;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Succeeded;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Every change comes back from its record as it went in, to the microsecond. */
class YoungChangeTest {
  private static final Instant NOW = Instant.parse("2026-12-07T07:15:30.123456Z");

  private static NewJob job(byte[] payload, String traceParent, String concurrencyKey) {
    return new NewJob(
        "emails",
        "send",
        payload,
        "application/json",
        -3,
        NOW.plusSeconds(5),
        null,
        null,
        new RetryPolicy(7, Duration.ofMillis(1500), 2.5, Duration.ofMinutes(3), 4),
        traceParent,
        concurrencyKey,
        null,
        DependsOn.NONE);
  }

  private static YoungChange roundTrip(YoungChange change) {
    return YoungChange.fromRecord(change.toRecord());
  }

  @Test
  void aCreatedJobComesBackWithEveryField() {
    NewJob job =
        job("{\"to\":\"a@b\"}".getBytes(StandardCharsets.UTF_8), "00-abc-def-01", "tenant-9");

    Created back = (Created) roundTrip(new Created(41, job, NOW));

    assertThat(back.jobId()).isEqualTo(41);
    assertThat(back.now()).isEqualTo(NOW);
    assertThat(back.job().payload()).isEqualTo(job.payload());
    assertThat(back.job()).usingRecursiveComparison().ignoringFields("payload").isEqualTo(job);
  }

  @Test
  void aCreatedJobWithoutItsOptionalFieldsComesBackWithout() {
    NewJob job = job(new byte[0], null, null);

    Created back = (Created) roundTrip(new Created(1, job, NOW));

    assertThat(back.job().payload()).isEmpty();
    assertThat(back.job().traceParent()).isNull();
    assertThat(back.job().concurrencyKey()).isNull();
  }

  @Test
  void aLeaseAHeartbeatAndACompletionComeBack() {
    byte[] digest = new byte[32];
    Arrays.fill(digest, (byte) 7);
    Leased lease =
        (Leased) roundTrip(new Leased(9, 2, "worker-a", 5, digest, NOW.plusSeconds(30), NOW));
    assertThat(lease)
        .usingRecursiveComparison()
        .isEqualTo(new Leased(9, 2, "worker-a", 5, digest, NOW.plusSeconds(30), NOW));

    assertThat(roundTrip(new Extended(9, 5, NOW.plusSeconds(60), "half", NOW)))
        .isEqualTo(new Extended(9, 5, NOW.plusSeconds(60), "half", NOW));

    Succeeded done =
        (Succeeded) roundTrip(new Succeeded(9, 5, new byte[] {1, 2}, "text/plain", NOW));
    assertThat(done.result()).containsExactly(1, 2);
    assertThat(done.resultContentType()).isEqualTo("text/plain");
    Succeeded bare = (Succeeded) roundTrip(new Succeeded(9, 5, null, null, NOW));
    assertThat(bare.result()).isNull();
    assertThat(bare.resultContentType()).isNull();
  }

  @Test
  void timesKeepMicrosecondsOnly() {
    Instant withNanos = Instant.parse("2026-12-07T07:15:30.123456789Z");

    assertThat(((Extended) roundTrip(new Extended(1, 1, withNanos, null, withNanos))).now())
        .isEqualTo(NOW);
  }

  @Test
  void aRecordCutShortOrOfAnUnknownKindIsRefused() {
    byte[] record = new Succeeded(9, 5, new byte[] {1, 2, 3}, null, NOW).toRecord();

    assertThatThrownBy(() -> YoungChange.fromRecord(Arrays.copyOf(record, record.length - 4)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cut short");
    assertThatThrownBy(() -> YoungChange.fromRecord(new byte[] {99}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("unknown change");
    byte[] longer = Arrays.copyOf(record, record.length + 1);
    assertThatThrownBy(() -> YoungChange.fromRecord(longer))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("longer");
  }
}
