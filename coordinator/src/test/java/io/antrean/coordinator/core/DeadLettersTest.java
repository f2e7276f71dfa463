package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.StoreFutures;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Operating the dead-letter queue through the core, on a real store and a fake clock. */
@Timeout(30)
class DeadLettersTest {
  private static final byte[] JSON = "{}".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService dispatch = Executors.newFixedThreadPool(2);
  private JobStore store;
  private JobScheduler scheduler;
  private DeadLetters deadLetters;

  @BeforeEach
  void start() {
    store = SqliteJobStore.open(dir);
    scheduler =
        new JobScheduler(
            store, Settings.defaults(), clock, new JitteredBackoff(() -> 0.5), timers, dispatch);
    deadLetters = new DeadLetters(scheduler);
  }

  @AfterEach
  void stop() {
    timers.shutdownNow();
    dispatch.shutdownNow();
    store.close();
  }

  /** Enqueues a job and fails it permanently with the message; returns its id. */
  private long deadLetter(String type, String message) throws Exception {
    long id =
        StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", type, JSON))).job().id();
    Job leased =
        scheduler
            .lease(new LeaseCommand("w", "", List.of(type), 1, null, Duration.ZERO))
            .get()
            .get(0);
    assertThat(leased.id()).isEqualTo(id);
    scheduler.fail(
        id, LeaseClaim.of(leased), "w", new Failure(ErrorKind.PERMANENT, "E", message, null, null));
    return id;
  }

  private static DeadLetterQuery byType(String type) {
    return new DeadLetterQuery(null, type, null, null, null, null, 100);
  }

  @Test
  void redriveByFilterStaggersRunTimesAtTheRateOldestFirst() throws Exception {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(deadLetter("card.charge", "declined"));
    }
    deadLetter("email.send", "smtp 550");

    RedriveOutcome outcome =
        deadLetters.redrive(
            new DeadLetterSelection(List.of(), byType("card.charge"), false), 10, 0);

    assertThat(outcome.redrivenIds()).containsExactlyElementsOf(ids);
    Instant now = clock.instant();
    for (int i = 0; i < ids.size(); i++) {
      Job job = scheduler.get(ids.get(i));
      assertThat(job.state()).isEqualTo(JobState.PENDING);
      assertThat(job.attempts()).isZero();
      assertThat(job.runAt()).isEqualTo(now.plusMillis(100L * i));
      assertThat(job.history())
          .extracting(a -> a.outcome())
          .containsExactly(AttemptOutcome.FAILED_PERMANENT, AttemptOutcome.REDRIVEN);
    }
    assertThat(outcome.lastRunAt()).isEqualTo(now.plusMillis(400));
    assertThat(deadLetters.list(byType("email.send")).jobs()).hasSize(1);
  }

  @Test
  void redriveByIdsReportsIdsThatAreNotDeadLettered() throws Exception {
    long dead = deadLetter("t", "boom");
    long pending =
        StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "t", JSON))).job().id();
    RedriveOutcome outcome =
        deadLetters.redrive(
            new DeadLetterSelection(List.of(dead, pending, 999L), null, false), 0, 0);
    assertThat(outcome.redrivenIds()).containsExactly(dead);
    assertThat(outcome.skippedIds()).containsExactly(pending, 999L);
  }

  @Test
  void redriveAndPurgeRefuseAnEmptySelectionWithoutAll() {
    DeadLetterSelection nothing =
        new DeadLetterSelection(
            List.of(), new DeadLetterQuery(null, null, null, null, null, null, 1), false);
    assertThatThrownBy(() -> deadLetters.redrive(nothing, 0, 0))
        .isInstanceOf(ValidationException.class);
    assertThatThrownBy(() -> deadLetters.purge(nothing)).isInstanceOf(ValidationException.class);
    assertThatThrownBy(
            () -> deadLetters.redrive(new DeadLetterSelection(List.of(1L), null, false), -1, 0))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e ->
                assertThat(e.violations())
                    .extracting(FieldViolation::field)
                    .containsExactly("rate_per_second"));
  }

  @Test
  void purgeAllDeletesEveryDeadLetterAndNothingElse() throws Exception {
    for (int i = 0; i < 7; i++) {
      deadLetter("t", "boom " + i);
    }
    long pending =
        StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "t", JSON))).job().id();
    assertThat(deadLetters.purge(new DeadLetterSelection(List.of(), null, true))).isEqualTo(7);
    assertThat(
            deadLetters.list(new DeadLetterQuery(null, null, null, null, null, null, 100)).jobs())
        .isEmpty();
    assertThat(scheduler.get(pending).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void purgeAllGoesOnPastPagesThatTheAnswerBudgetEndedEarly() throws Exception {
    byte[] longest = new byte[Settings.defaults().maxPayloadBytes()];
    for (int i = 0; i < 3; i++) {
      long id =
          StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "long", longest)))
              .job()
              .id();
      Job leased =
          scheduler
              .lease(new LeaseCommand("w", "", List.of("long"), 1, null, Duration.ZERO))
              .get()
              .get(0);
      scheduler.fail(
          id, LeaseClaim.of(leased), "w", new Failure(ErrorKind.PERMANENT, "E", "no", null, null));
    }

    // Pages of two (1 MiB payloads): the purge must not stop at the first short page.
    assertThat(deadLetters.purge(new DeadLetterSelection(List.of(), null, true))).isEqualTo(3);
    assertThat(
            deadLetters.list(new DeadLetterQuery(null, null, null, null, null, null, 100)).jobs())
        .isEmpty();
  }

  @Test
  void getOfAJobThatIsNotDeadLetteredIsRefused() {
    long pending =
        StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "t", JSON))).job().id();
    assertThatThrownBy(() -> deadLetters.get(pending)).isInstanceOf(NotDeadLetteredException.class);
  }

  @Test
  void statsReportDeadLetterGrowthWithinTheWindow() throws Exception {
    deadLetter("t", "boom");
    deadLetter("t", "boom");
    clock.advance(Duration.ofMinutes(10));
    deadLetter("t", "boom");
    QueueReport report = scheduler.queueReports().all("default").get(0);
    assertThat(report.counts().failed()).isEqualTo(3);
    assertThat(report.deadLetteredRecently()).isEqualTo(1);
  }

  @Test
  void cancellingAFinishedJobIsRefused() throws Exception {
    long id = deadLetter("t", "boom");
    assertThatThrownBy(() -> scheduler.cancel(id)).isInstanceOf(JobFinishedException.class);
    long pending =
        StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "t", JSON))).job().id();
    assertThat(scheduler.cancel(pending).state()).isEqualTo(JobState.CANCELLED);
  }

  @Test
  void retentionDeletesFinishedJobsPastTheirPeriodOnly() throws Exception {
    long old = deadLetter("t", "boom");
    clock.advance(Duration.ofDays(29));
    long young = deadLetter("t", "boom");
    RetentionSweep retention = new RetentionSweep(store, Retention.DEFAULT);
    clock.advance(Duration.ofDays(2));
    assertThat(retention.runOnce(clock.instant())).isEqualTo(1);
    assertThat(store.get(old)).isEmpty();
    assertThat(store.get(young)).isPresent();
  }
}
