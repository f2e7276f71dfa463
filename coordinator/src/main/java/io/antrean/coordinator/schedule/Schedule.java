package io.antrean.coordinator.schedule;

import io.antrean.coordinator.job.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A stored schedule: its definition and where it stands.
 *
 * @param pausedAt when it was paused; null while it runs
 * @param nextFireAt the next due time it will fire
 * @param lastFireAt the due time of its last enqueued job; null before the first
 * @param lastJobId that job's id; null before the first
 * @param lastJobState that job's state as read with the schedule; null when unknown or deleted
 * @param fires jobs enqueued since creation
 * @param misses due times not fired (misfires, overlaps) since creation
 */
public record Schedule(
    ScheduleDefinition definition,
    @Nullable Instant pausedAt,
    Instant nextFireAt,
    @Nullable Instant lastFireAt,
    @Nullable Long lastJobId,
    @Nullable JobState lastJobState,
    long fires,
    long misses,
    Instant createdAt,
    Instant updatedAt) {

  public Schedule {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(nextFireAt, "nextFireAt");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  public String name() {
    return definition.name();
  }

  public boolean paused() {
    return pausedAt != null;
  }

  /** The next {@code count} due times, starting with {@link #nextFireAt}. */
  public List<Instant> upcoming(int count) {
    List<Instant> times = new ArrayList<>(count);
    Instant t = nextFireAt;
    for (int i = 0; i < count; i++) {
      times.add(t);
      t = definition.recurrence().nextAfter(t);
    }
    return times;
  }
}
