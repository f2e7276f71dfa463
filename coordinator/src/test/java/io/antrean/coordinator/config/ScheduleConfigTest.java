package io.antrean.coordinator.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.api.ScheduleMapper;
import io.antrean.coordinator.core.MutableClock;
import io.antrean.coordinator.core.Schedules;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.schedule.CronRecurrence;
import io.antrean.coordinator.schedule.IntervalRecurrence;
import io.antrean.coordinator.schedule.MisfirePolicy;
import io.antrean.coordinator.schedule.OverlapPolicy;
import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.proto.v1.ScheduleDefinition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Schedules declared in the config file, as docs/scheduling.md shows them. */
class ScheduleConfigTest {
  /** The example of docs/scheduling.md. */
  private static final String DOCS_EXAMPLE =
      """
      {
        "jobTypes": [{"name": "report.build"}, {"name": "cache.warm"}],
        "schedules": [
          {"name": "nightly-report", "cron": "0 3 * * *", "timeZone": "Europe/Berlin",
           "template": {"queue": "reports", "type": "report.build", "payload": "eyJraW5kIjoiZGFpbHkifQ=="},
           "misfirePolicy": "MISFIRE_POLICY_RUN_ONCE"},
          {"name": "warm-cache", "interval": "300s",
           "template": {"type": "cache.warm"}, "overlapPolicy": "OVERLAP_POLICY_SKIP"}
        ]
      }
      """;

  @TempDir Path dir;

  @Test
  void theDocsExampleDeclaresBothSchedulesAndARestartKeepsTheirNextFireTimes() throws Exception {
    Path file = dir.resolve("antrean.json");
    Files.writeString(file, DOCS_EXAMPLE, StandardCharsets.UTF_8);
    Settings settings = ConfigFile.apply(file, Settings.defaults());
    List<ScheduleDefinition> declared = ConfigFile.schedules(file);
    MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));

    try (SqliteJobStore store = SqliteJobStore.open(dir.resolve("data"))) {
      Schedules schedules = new Schedules(store.schedules(), settings, clock);
      declared.forEach(d -> schedules.declare(ScheduleMapper.command(d, "schedules[0].")));
      List<Schedule> first = schedules.list();
      clock.advance(Duration.ofSeconds(30));
      declared.forEach(d -> schedules.declare(ScheduleMapper.command(d, "schedules[0].")));

      assertThat(first).extracting(Schedule::name).containsExactly("nightly-report", "warm-cache");
      Schedule nightly = first.get(0);
      assertThat(nightly.definition().recurrence())
          .isEqualTo(CronRecurrence.parse("0 3 * * *", java.time.ZoneId.of("Europe/Berlin")));
      assertThat(nightly.definition().misfirePolicy()).isEqualTo(MisfirePolicy.RUN_ONCE);
      assertThat(new String(nightly.definition().template().payload(), StandardCharsets.UTF_8))
          .isEqualTo("{\"kind\":\"daily\"}");
      assertThat(nightly.nextFireAt()).isEqualTo(Instant.parse("2026-03-02T02:00:00Z"));
      Schedule warm = first.get(1);
      assertThat(warm.definition().recurrence())
          .isEqualTo(new IntervalRecurrence(Duration.ofMinutes(5)));
      assertThat(warm.definition().overlapPolicy()).isEqualTo(OverlapPolicy.SKIP);
      assertThat(schedules.list())
          .extracting(Schedule::nextFireAt)
          .containsExactly(nightly.nextFireAt(), warm.nextFireAt());
    }
  }
}
