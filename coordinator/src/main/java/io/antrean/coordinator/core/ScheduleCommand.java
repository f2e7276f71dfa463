package io.antrean.coordinator.core;

import io.antrean.coordinator.schedule.MisfirePolicy;
import io.antrean.coordinator.schedule.OverlapPolicy;
import java.time.Duration;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A schedule as its owner sends it, before validation. Empty strings and nulls mean "not given".
 *
 * @param interval null when not given
 * @param misfirePolicy null for the default ({@link MisfirePolicy#SKIP})
 * @param misfireLimit 0 for the default
 * @param overlapPolicy null for the default ({@link OverlapPolicy#ALLOW})
 */
public record ScheduleCommand(
    String name,
    String cron,
    String timeZone,
    @Nullable Duration interval,
    EnqueueCommand template,
    @Nullable MisfirePolicy misfirePolicy,
    int misfireLimit,
    @Nullable OverlapPolicy overlapPolicy) {

  public ScheduleCommand {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(cron, "cron");
    Objects.requireNonNull(timeZone, "timeZone");
    Objects.requireNonNull(template, "template");
  }
}
