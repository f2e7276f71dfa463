package io.antrean.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.TestJobRecords;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job's history as a message: the entries the store kept, and how many it left out. */
class JobMapperTest {
  private static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");

  @Test
  void theOlderEntriesLeftOutOfAHistoryAreCounted() {
    Attempt newest =
        new Attempt(
            3,
            "w",
            3,
            T0,
            T0,
            AttemptOutcome.FAILED_RETRYABLE,
            ErrorKind.RETRYABLE,
            "E",
            "third",
            null);
    Job job = TestJobRecords.job(1, T0).build().withHistory(List.of(newest), 2);

    io.antrean.proto.v1.Job message = JobMapper.job(job);

    assertThat(message.getHistoryList()).hasSize(1);
    assertThat(message.getHistory(0).getErrorMessage()).isEqualTo("third");
    assertThat(message.getHistoryOmitted()).isEqualTo(2);
  }
}
