package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.schedule.CronRecurrence;
import io.antrean.coordinator.schedule.IntervalRecurrence;
import io.antrean.coordinator.schedule.JobTemplate;
import io.antrean.coordinator.schedule.MisfirePolicy;
import io.antrean.coordinator.schedule.OverlapPolicy;
import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.schedule.ScheduleDefinition;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Durable schedules: definitions round-trip, and a fire is a compare-and-set with its enqueue. */
public interface ScheduleContract extends JobStoreFixture {
  Duration KEY_WINDOW = Duration.ofDays(1);

  static ScheduleDefinition everyTenSeconds(String name) {
    return new ScheduleDefinition(
        name,
        new IntervalRecurrence(Duration.ofSeconds(10)),
        new JobTemplate(
            "reports", "report", utf8("{\"n\":1}"), "application/json", 3, RetryPolicy.DEFAULT),
        MisfirePolicy.RUN_ALL,
        100,
        OverlapPolicy.ALLOW);
  }

  /** A firing of the schedule's due time {@code due}, moving it on to {@code next}. */
  static ScheduleFiring firing(ScheduleDefinition d, Instant due, Instant next, boolean skip) {
    NewJob job = d.template().jobFor(d.name(), due, KEY_WINDOW);
    return new ScheduleFiring(d.name(), due, next, List.of(job), 0, skip);
  }

  private ScheduleStore schedules() {
    return store().schedules();
  }

  @Test
  default void createdScheduleReadsBackWithItsDefinitionAndNextFireTime() {
    ScheduleDefinition cron =
        new ScheduleDefinition(
            "nightly",
            CronRecurrence.parse("0 3 * * *", ZoneId.of("Europe/Berlin")),
            new JobTemplate(
                "default",
                "backup",
                utf8("{}"),
                "application/json",
                0,
                new RetryPolicy(2, Duration.ofMillis(1500), 3.0, Duration.ofMinutes(2), 4)),
            MisfirePolicy.RUN_ONCE,
            7,
            OverlapPolicy.SKIP);
    schedules().create(cron, at(60), T0);
    schedules().create(everyTenSeconds("a-first"), at(10), T0);

    Schedule read = schedules().get("nightly").orElseThrow();
    assertThat(read.definition()).isEqualTo(cron);
    assertThat(read.nextFireAt()).isEqualTo(at(60));
    assertThat(read.paused()).isFalse();
    assertThat(read.fires()).isZero();
    assertThat(read.lastJobId()).isNull();
    assertThat(read.createdAt()).isEqualTo(T0);
    assertThat(schedules().list()).extracting(Schedule::name).containsExactly("a-first", "nightly");
    assertThat(schedules().get("nope")).isEmpty();
  }

  @Test
  default void secondCreateOfANameFailsAndChangesNothing() {
    schedules().create(everyTenSeconds("s"), at(10), T0);
    ScheduleDefinition other = everyTenSeconds("s");

    assertThatThrownBy(() -> schedules().create(other, at(99), at(1)))
        .isInstanceOf(ScheduleExistsException.class);
    assertThat(schedules().get("s").orElseThrow().nextFireAt()).isEqualTo(at(10));
  }

  @Test
  default void updateReplacesTheDefinitionAndDeleteRemovesIt() {
    schedules().create(everyTenSeconds("s"), at(10), T0);
    ScheduleDefinition changed =
        new ScheduleDefinition(
            "s",
            new IntervalRecurrence(Duration.ofMinutes(1)),
            everyTenSeconds("s").template(),
            MisfirePolicy.SKIP,
            100,
            OverlapPolicy.ALLOW);

    Schedule updated = schedules().update(changed, at(60), at(5));

    assertThat(updated.definition()).isEqualTo(changed);
    assertThat(updated.nextFireAt()).isEqualTo(at(60));
    assertThat(updated.updatedAt()).isEqualTo(at(5));
    assertThatThrownBy(() -> schedules().update(everyTenSeconds("other"), at(1), at(5)))
        .isInstanceOf(ScheduleNotFoundException.class);
    assertThat(schedules().delete("s")).isTrue();
    assertThat(schedules().delete("s")).isFalse();
    assertThat(schedules().list()).isEmpty();
  }

  @Test
  default void fireEnqueuesTheJobAndMovesTheScheduleOnTogether() {
    ScheduleDefinition d = everyTenSeconds("s");
    schedules().create(d, at(10), T0);
    assertThat(schedules().due(at(9), 10)).isEmpty();
    assertThat(schedules().due(at(10), 10)).extracting(Schedule::name).containsExactly("s");

    ScheduleFired fired = schedules().fire(firing(d, at(10), at(20), false), at(10)).orElseThrow();

    Job job = fired.enqueued().get(0).job();
    assertThat(job.queue()).isEqualTo("reports");
    assertThat(job.type()).isEqualTo("report");
    assertThat(job.priority()).isEqualTo(3);
    assertThat(job.runAt()).isEqualTo(at(10));
    assertThat(job.idempotencyKey()).isEqualTo(JobTemplate.idempotencyKey("s", at(10)));
    Schedule after = schedules().get("s").orElseThrow();
    assertThat(after.nextFireAt()).isEqualTo(at(20));
    assertThat(after.lastFireAt()).isEqualTo(at(10));
    assertThat(after.lastJobId()).isEqualTo(job.id());
    assertThat(after.lastJobState()).isEqualTo(JobState.PENDING);
    assertThat(after.fires()).isEqualTo(1);
    assertThat(schedules().due(at(15), 10)).isEmpty();
  }

  @Test
  default void aStaleFireChangesNothing() {
    ScheduleDefinition d = everyTenSeconds("s");
    schedules().create(d, at(10), T0);
    schedules().fire(firing(d, at(10), at(20), false), at(10)).orElseThrow();

    Optional<ScheduleFired> again = schedules().fire(firing(d, at(10), at(20), false), at(11));

    assertThat(again).isEmpty();
    assertThat(store().list(new JobQuery("reports", null, null, null, 10)).jobs()).hasSize(1);
    assertThat(schedules().get("s").orElseThrow().fires()).isEqualTo(1);
  }

  @Test
  @Timeout(60)
  default void concurrentFiresOfOneDueTimeStoreExactlyOneJob() throws Exception {
    ScheduleDefinition d = everyTenSeconds("s");
    schedules().create(d, at(10), T0);
    AtomicInteger won = new AtomicInteger();

    Concurrently.run(
        8,
        () -> {
          if (schedules().fire(firing(d, at(10), at(20), false), at(10)).isPresent()) {
            won.incrementAndGet();
          }
        });

    assertThat(won).hasValue(1);
    assertThat(store().list(new JobQuery("reports", null, null, null, 10)).jobs()).hasSize(1);
    assertThat(schedules().get("s").orElseThrow().nextFireAt()).isEqualTo(at(20));
  }

  @Test
  default void pausedScheduleIsNotDueAndCannotFire() {
    ScheduleDefinition d = everyTenSeconds("s");
    schedules().create(d, at(10), T0);

    Schedule paused = schedules().setPaused("s", true, at(99), at(5));
    schedules().setPaused("s", true, at(99), at(6));

    assertThat(paused.pausedAt()).isEqualTo(at(5));
    assertThat(schedules().get("s").orElseThrow().pausedAt()).isEqualTo(at(5));
    assertThat(schedules().due(at(30), 10)).isEmpty();
    assertThat(schedules().fire(firing(d, at(10), at(20), false), at(30))).isEmpty();

    Schedule resumed = schedules().setPaused("s", false, at(40), at(31));
    assertThat(resumed.paused()).isFalse();
    assertThat(resumed.nextFireAt()).isEqualTo(at(40));
    assertThatThrownBy(() -> schedules().setPaused("nope", true, at(1), at(1)))
        .isInstanceOf(ScheduleNotFoundException.class);
  }

  @Test
  default void overlapSkipEnqueuesNothingWhileThePreviousJobIsActive() {
    ScheduleDefinition d = everyTenSeconds("s");
    schedules().create(d, at(10), T0);
    Job first =
        schedules()
            .fire(firing(d, at(10), at(20), true), at(10))
            .orElseThrow()
            .enqueued()
            .get(0)
            .job();

    ScheduleFired skipped = schedules().fire(firing(d, at(20), at(30), true), at(20)).orElseThrow();

    assertThat(skipped.enqueued()).isEmpty();
    assertThat(skipped.misses()).isEqualTo(1);
    Schedule after = schedules().get("s").orElseThrow();
    assertThat(after.nextFireAt()).isEqualTo(at(30));
    assertThat(after.misses()).isEqualTo(1);
    assertThat(after.lastJobId()).isEqualTo(first.id());

    List<Job> leased =
        store().lease(new LeaseSpec("w", "reports", java.util.Set.of(), 1, at(60)), at(21));
    store().complete(first.id(), LeaseClaim.of(leased.get(0)), "w", null, null, at(22));
    ScheduleFired fired = schedules().fire(firing(d, at(30), at(40), true), at(30)).orElseThrow();
    assertThat(fired.enqueued()).hasSize(1);
  }

  @Test
  default void fireOfADueTimeAlreadyEnqueuedReturnsTheExistingJob() {
    ScheduleDefinition d = everyTenSeconds("s");
    schedules().create(d, at(10), T0);
    Job first =
        schedules()
            .fire(firing(d, at(10), at(20), false), at(10))
            .orElseThrow()
            .enqueued()
            .get(0)
            .job();
    // The schedule is recreated and, by a mistake upstream, asked to fire the same due time again.
    schedules().delete("s");
    schedules().create(d, at(10), at(11));

    ScheduleFired again = schedules().fire(firing(d, at(10), at(20), false), at(12)).orElseThrow();

    assertThat(again.enqueued())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.deduplicated()).isTrue();
              assertThat(r.job().id()).isEqualTo(first.id());
            });
    assertThat(schedules().get("s").orElseThrow().fires()).isZero();
  }

  @Test
  default void schedulesSurviveAsLongAsTheStoreAndLeaveOtherJobsAlone() {
    schedules().create(everyTenSeconds("s"), at(10), T0);
    Job plain = enqueue("t");

    assertThat(store().lease(spec("w", 10, at(30)), at(1)))
        .extracting(Job::id)
        .containsExactly(plain.id());
    assertThat(store().schedules()).isSameAs(schedules());
  }
}
