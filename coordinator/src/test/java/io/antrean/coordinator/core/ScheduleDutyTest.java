package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.schedule.MisfirePolicy;
import io.antrean.coordinator.schedule.OverlapPolicy;
import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.ScheduleExistsException;
import io.antrean.coordinator.store.ScheduleNotFoundException;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schedules created through {@link Schedules} and fired by {@link ScheduleDuty} on a fake clock.
 */
class ScheduleDutyTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  @TempDir Path dir;
  private SqliteJobStore store;
  private final MutableClock clock = new MutableClock(T0);
  private Schedules schedules;
  private ScheduleDuty duty;
  private final List<EnqueueResult> announced = new ArrayList<>();
  private final AtomicLong fired = new AtomicLong();
  private final AtomicLong missed = new AtomicLong();

  @BeforeEach
  void open() {
    store = SqliteJobStore.open(dir);
    schedules = new Schedules(store.schedules(), Settings.defaults(), clock);
    ScheduleEvents events =
        new ScheduleEvents() {
          @Override
          public void onFired(String schedule, int jobs) {
            fired.addAndGet(jobs);
          }

          @Override
          public void onMissed(String schedule, long dueTimes) {
            missed.addAndGet(dueTimes);
          }
        };
    duty =
        new ScheduleDuty(
            store.schedules(),
            Duration.ofDays(1),
            (results, now) -> announced.addAll(results),
            events);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static ScheduleCommand cron(String name, String cron, MisfirePolicy misfire) {
    return new ScheduleCommand(
        name,
        cron,
        "",
        null,
        EnqueueCommand.of("reports", "report", "{}".getBytes(StandardCharsets.UTF_8)),
        misfire,
        0,
        null);
  }

  private static ScheduleCommand every(String name, Duration interval, OverlapPolicy overlap) {
    return new ScheduleCommand(
        name,
        "",
        "",
        interval,
        EnqueueCommand.of("reports", "report", "{}".getBytes(StandardCharsets.UTF_8)),
        MisfirePolicy.RUN_ALL,
        0,
        overlap);
  }

  private List<Job> jobs() {
    List<Job> jobs =
        new ArrayList<>(store.list(new JobQuery("reports", null, null, null, 1000)).jobs());
    jobs.sort(Comparator.comparing(Job::runAt));
    return jobs;
  }

  private int tick(Duration d) {
    clock.advance(d);
    return duty.runOnce(clock.instant());
  }

  @Test
  void eachDueTimeEnqueuesOneJobRunningAtThatTime() {
    Schedule created = schedules.create(cron("minutely", "0 * * * * *", MisfirePolicy.SKIP));
    assertThat(created.nextFireAt()).isEqualTo(T0.plusSeconds(60));
    assertThat(created.upcoming(3))
        .containsExactly(T0.plusSeconds(60), T0.plusSeconds(120), T0.plusSeconds(180));

    assertThat(tick(Duration.ofSeconds(59))).isZero();
    assertThat(tick(Duration.ofMillis(1200))).isEqualTo(1);
    assertThat(tick(Duration.ofSeconds(1))).isZero();
    assertThat(tick(Duration.ofSeconds(59))).isEqualTo(1);

    assertThat(jobs())
        .extracting(Job::runAt)
        .containsExactly(T0.plusSeconds(60), T0.plusSeconds(120));
    assertThat(announced).hasSize(2);
    assertThat(fired).hasValue(2);
    Schedule after = schedules.get("minutely");
    assertThat(after.fires()).isEqualTo(2);
    assertThat(after.nextFireAt()).isEqualTo(T0.plusSeconds(180));
  }

  @Test
  void afterDowntimeRunAllCatchesUpAndRunOnceFiresOnce() {
    schedules.create(cron("all", "* * * * * *", MisfirePolicy.RUN_ALL));
    schedules.create(
        new ScheduleCommand(
            "once",
            "* * * * * *",
            "UTC",
            null,
            EnqueueCommand.of("other", "report", new byte[0]),
            MisfirePolicy.RUN_ONCE,
            0,
            null));

    assertThat(tick(Duration.ofSeconds(10))).isEqualTo(11);

    assertThat(jobs()).hasSize(10);
    assertThat(store.list(new JobQuery("other", null, null, null, 100)).jobs()).hasSize(1);
    assertThat(schedules.get("once").misses()).isEqualTo(9);
    assertThat(missed).hasValue(9);
  }

  @Test
  void pausedScheduleFiresNothingAndResumesFromTheNextDueTime() {
    schedules.create(every("s", Duration.ofSeconds(10), OverlapPolicy.ALLOW));
    schedules.pause("s");

    assertThat(tick(Duration.ofSeconds(60))).isZero();
    Schedule resumed = schedules.resume("s");

    assertThat(resumed.nextFireAt()).isEqualTo(clock.instant().plusSeconds(10));
    assertThat(tick(Duration.ofSeconds(10))).isEqualTo(1);
    assertThat(jobs()).hasSize(1);
  }

  @Test
  void overlapSkipWaitsForThePreviousJobToFinish() {
    schedules.create(every("s", Duration.ofSeconds(10), OverlapPolicy.SKIP));

    assertThat(tick(Duration.ofSeconds(10))).isEqualTo(1);
    assertThat(tick(Duration.ofSeconds(10))).isZero();
    store.cancel(jobs().get(0).id(), clock.instant());
    assertThat(tick(Duration.ofSeconds(10))).isEqualTo(1);

    assertThat(schedules.get("s").misses()).isEqualTo(1);
  }

  @Test
  void declareKeepsAnUnchangedScheduleAndReplacesAChangedOne() {
    Schedule first = schedules.declare(every("s", Duration.ofSeconds(10), OverlapPolicy.ALLOW));
    clock.advance(Duration.ofSeconds(3));

    assertThat(
            schedules.declare(every("s", Duration.ofSeconds(10), OverlapPolicy.ALLOW)).nextFireAt())
        .isEqualTo(first.nextFireAt());
    assertThat(
            schedules.declare(every("s", Duration.ofSeconds(20), OverlapPolicy.ALLOW)).nextFireAt())
        .isEqualTo(clock.instant().plusSeconds(20));
  }

  @Test
  void unknownNamesAndTakenNamesAreReported() {
    schedules.create(every("s", Duration.ofSeconds(10), OverlapPolicy.ALLOW));

    assertThatThrownBy(() -> schedules.create(every("s", Duration.ofSeconds(5), null)))
        .isInstanceOf(ScheduleExistsException.class);
    assertThatThrownBy(() -> schedules.get("t")).isInstanceOf(ScheduleNotFoundException.class);
    assertThatThrownBy(() -> schedules.delete("t")).isInstanceOf(ScheduleNotFoundException.class);
    assertThatThrownBy(() -> schedules.pause("t")).isInstanceOf(ScheduleNotFoundException.class);
    schedules.delete("s");
    assertThat(schedules.list()).isEmpty();
  }

  @Test
  void badDefinitionsNameEveryFieldAtFault() {
    assertThatThrownBy(
            () ->
                schedules.create(
                    new ScheduleCommand(
                        "bad name!",
                        "61 * * * *",
                        "Mars/Olympus",
                        null,
                        EnqueueCommand.of("q", "", new byte[0]),
                        null,
                        5000,
                        null)))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e ->
                assertThat(e.violations())
                    .extracting(FieldViolation::field)
                    .containsExactlyInAnyOrder(
                        "schedule.name",
                        "schedule.time_zone",
                        "schedule.template.type",
                        "schedule.misfire_limit"));
    assertThatThrownBy(() -> schedules.create(cron("c", "61 * * * *", MisfirePolicy.SKIP)))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e ->
                assertThat(e.violations())
                    .extracting(FieldViolation::field)
                    .containsExactly("schedule.cron"));
    assertThatThrownBy(() -> schedules.create(every("i", Duration.ZERO, OverlapPolicy.ALLOW)))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e ->
                assertThat(e.violations())
                    .extracting(FieldViolation::field)
                    .containsExactly("schedule.interval"));
    assertThatThrownBy(
            () ->
                schedules.create(
                    new ScheduleCommand(
                        "both",
                        "* * * * *",
                        "",
                        Duration.ofSeconds(5),
                        EnqueueCommand.of("q", "t", new byte[0]),
                        null,
                        0,
                        null)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("exactly one of cron and interval");
    assertThatThrownBy(() -> schedules.get("")).isInstanceOf(ValidationException.class);
  }
}
