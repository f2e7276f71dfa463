package io.antrean.coordinator.schedule;

import java.util.Objects;

/**
 * A validated schedule as its owner defines it.
 *
 * @param misfireLimit {@link MisfirePolicy#RUN_ALL}'s bound on due times fired at once; at least 1
 */
public record ScheduleDefinition(
    String name,
    Recurrence recurrence,
    JobTemplate template,
    MisfirePolicy misfirePolicy,
    int misfireLimit,
    OverlapPolicy overlapPolicy) {

  public ScheduleDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(recurrence, "recurrence");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(misfirePolicy, "misfirePolicy");
    Objects.requireNonNull(overlapPolicy, "overlapPolicy");
    if (misfireLimit < 1) {
      throw new IllegalArgumentException("misfireLimit must be at least 1, got " + misfireLimit);
    }
  }
}
