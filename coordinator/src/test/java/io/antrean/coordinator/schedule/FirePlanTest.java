package io.antrean.coordinator.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class FirePlanTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final JobTemplate TEMPLATE =
      new JobTemplate(
          "default",
          "t",
          "{}".getBytes(StandardCharsets.UTF_8),
          "application/json",
          0,
          RetryPolicy.DEFAULT);

  private static ScheduleDefinition schedule(
      Recurrence recurrence, MisfirePolicy misfire, int limit, OverlapPolicy overlap) {
    return new ScheduleDefinition("s", recurrence, TEMPLATE, misfire, limit, overlap);
  }

  private static ScheduleDefinition everySecond(MisfirePolicy misfire, int limit) {
    return schedule(
        CronRecurrence.parse("* * * * * *", ZoneOffset.UTC), misfire, limit, OverlapPolicy.ALLOW);
  }

  private static Instant at(double seconds) {
    return T0.plusMillis((long) (seconds * 1000));
  }

  @Test
  void onTimeFireEnqueuesTheDueTimeAndMovesToTheNextOne() {
    for (MisfirePolicy policy : MisfirePolicy.values()) {
      FirePlan plan = FirePlan.of(everySecond(policy, 100), T0, at(0.2));

      assertThat(plan.dueTimes()).as("%s", policy).containsExactly(T0);
      assertThat(plan.misses()).isZero();
      assertThat(plan.nextFireAt()).isEqualTo(at(1));
    }
  }

  @Test
  void runAllFiresTheLatestDueTimesUpToItsLimitAndCountsTheRestAsMisses() {
    FirePlan plan = FirePlan.of(everySecond(MisfirePolicy.RUN_ALL, 3), T0, at(9.5));

    assertThat(plan.dueTimes()).containsExactly(at(7), at(8), at(9));
    assertThat(plan.misses()).isEqualTo(7);
    assertThat(plan.nextFireAt()).isEqualTo(at(10));
  }

  @Test
  void runAllWithinItsLimitFiresEveryMissedDueTime() {
    FirePlan plan = FirePlan.of(everySecond(MisfirePolicy.RUN_ALL, 100), T0, at(4));

    assertThat(plan.dueTimes()).containsExactly(T0, at(1), at(2), at(3), at(4));
    assertThat(plan.misses()).isZero();
  }

  @Test
  void runOnceFiresOnlyTheLatestMissedDueTime() {
    FirePlan plan = FirePlan.of(everySecond(MisfirePolicy.RUN_ONCE, 100), T0, at(9.5));

    assertThat(plan.dueTimes()).containsExactly(at(9));
    assertThat(plan.misses()).isEqualTo(9);
  }

  @Test
  void skipDropsADueTimeLaterThanTheGraceAndWaitsForTheNext() {
    ScheduleDefinition hourly =
        schedule(
            CronRecurrence.parse("0 * * * *", ZoneOffset.UTC),
            MisfirePolicy.SKIP,
            100,
            OverlapPolicy.ALLOW);

    FirePlan late = FirePlan.of(hourly, T0, T0.plus(Duration.ofHours(3)).plusSeconds(61));
    FirePlan inGrace = FirePlan.of(hourly, T0, T0.plusSeconds(59));

    assertThat(late.dueTimes()).isEmpty();
    assertThat(late.misses()).isEqualTo(4);
    assertThat(late.nextFireAt()).isEqualTo(T0.plus(Duration.ofHours(4)));
    assertThat(inGrace.dueTimes()).containsExactly(T0);
  }

  @Test
  void overlapSkipFiresOneDueTimeEvenUnderRunAll() {
    ScheduleDefinition d =
        schedule(
            new IntervalRecurrence(Duration.ofSeconds(10)),
            MisfirePolicy.RUN_ALL,
            100,
            OverlapPolicy.SKIP);

    FirePlan plan = FirePlan.of(d, T0, at(35));

    assertThat(plan.dueTimes()).containsExactly(at(30));
    assertThat(plan.misses()).isEqualTo(3);
    assertThat(plan.nextFireAt()).isEqualTo(at(40));
  }

  @Test
  void intervalCountsALongDowntimeWithoutWalkingIt() {
    ScheduleDefinition d =
        schedule(
            new IntervalRecurrence(Duration.ofSeconds(1)),
            MisfirePolicy.RUN_ALL,
            2,
            OverlapPolicy.ALLOW);

    FirePlan plan = FirePlan.of(d, T0, T0.plus(Duration.ofDays(30)));

    assertThat(plan.dueTimes()).hasSize(2);
    assertThat(plan.misses()).isEqualTo(30L * 86_400 + 1 - 2);
  }

  @Test
  void cronFollowsItsTimeZone() {
    CronRecurrence berlinThreeAm = CronRecurrence.parse("0 3 * * *", ZoneId.of("Europe/Berlin"));

    // 2026-03-01 is in winter time (UTC+1): 03:00 in Berlin is 02:00 UTC.
    assertThat(berlinThreeAm.nextAfter(T0)).isEqualTo(Instant.parse("2026-03-02T02:00:00Z"));
    // After the switch to summer time (29 March), 03:00 in Berlin is 01:00 UTC.
    assertThat(berlinThreeAm.nextAfter(Instant.parse("2026-04-01T00:00:00Z")))
        .isEqualTo(Instant.parse("2026-04-01T01:00:00Z"));
  }

  @Test
  void cronDueTimesFallOnWholeSecondsWhateverTheFractionOfNow() {
    CronRecurrence everySecond = CronRecurrence.parse("* * * * * *", ZoneOffset.UTC);

    for (long micros = 0; micros < 1_000_000; micros += 7_919) {
      Instant now = T0.plusNanos(micros * 1000);
      assertThat(everySecond.nextAfter(now)).as("after %s", now).isEqualTo(T0.plusSeconds(1));
    }
    assertThat(everySecond.nextAfter(T0.plusNanos(887_075_000))).isEqualTo(T0.plusSeconds(1));
  }

  @Test
  void notYetDueIsRefused() {
    assertThatThrownBy(() -> FirePlan.of(everySecond(MisfirePolicy.SKIP, 1), at(2), at(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void badCronExpressionsAreRefusedWithCronUtilsReason() {
    assertThatThrownBy(() -> CronRecurrence.parse("61 * * * *", ZoneOffset.UTC))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CronRecurrence.parse("* * *", ZoneOffset.UTC))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5 fields");
  }
}
