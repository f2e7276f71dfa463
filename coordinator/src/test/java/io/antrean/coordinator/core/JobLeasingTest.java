package io.antrean.coordinator.core;

import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.OverloadedException;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease that rides on a CompleteBatch, against items already refused. */
class JobLeasingTest {
  @TempDir Path dir;
  private SqliteJobStore store;
  private JobLeasing leasing;

  @BeforeEach
  void open() {
    store = SqliteJobStore.open(dir, SqliteOptions.defaults());
    leasing =
        new JobLeasing(
            store, Clock.fixed(T0, ZoneOffset.UTC), new LeaseExpiryTimers(), SchedulerEvents.NONE);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void itemsRefusedAtOnceLeaseNothingAndTheCallFails() {
    long id = store.enqueue(List.of(job("t").build()), T0).get(0).job().id();
    CompletableFuture<List<CompletionOutcome>> refused =
        CompletableFuture.failedFuture(
            new OverloadedException("write_queue", "full", Duration.ofSeconds(1)));

    CompletableFuture<CompletionsAndLeases> answer =
        leasing.leaseAfter(refused, new LeasePlan("w", QUEUE, Set.of(), 5, Duration.ofSeconds(30)));

    assertThat(answer).isCompletedExceptionally();
    assertThat(answer.handle((a, e) -> e).join())
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(OverloadedException.class);
    assertThat(store.get(id).orElseThrow().state()).isEqualTo(JobState.PENDING);
  }
}
