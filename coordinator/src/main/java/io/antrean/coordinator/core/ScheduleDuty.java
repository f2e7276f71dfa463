package io.antrean.coordinator.core;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.schedule.FirePlan;
import io.antrean.coordinator.schedule.OverlapPolicy;
import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.schedule.ScheduleDefinition;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.ScheduleFired;
import io.antrean.coordinator.store.ScheduleFiring;
import io.antrean.coordinator.store.ScheduleStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires the schedules that are due: for each, plans the fire ({@link FirePlan}) and has the store
 * enqueue its jobs and move the schedule on in one compare-and-set. Safe to run on every
 * coordinator at once: of several coordinators firing one due time, one stores its jobs and the
 * others change nothing. Not thread-safe: run it from one thread.
 */
public final class ScheduleDuty {
  private static final Logger log = LoggerFactory.getLogger(ScheduleDuty.class);
  static final int BATCH = 100;

  private final ScheduleStore store;
  private final Duration keyWindow;
  private final BiConsumer<List<EnqueueResult>, Instant> announce;
  private final ScheduleEvents events;

  /**
   * @param keyWindow how long after its due time a fired job's idempotency key is remembered
   * @param announce told of the jobs each fire stored (wakes waiting workers)
   */
  public ScheduleDuty(
      ScheduleStore store,
      Duration keyWindow,
      BiConsumer<List<EnqueueResult>, Instant> announce,
      ScheduleEvents events) {
    this.store = store;
    this.keyWindow = keyWindow;
    this.announce = announce;
    this.events = events;
  }

  /**
   * Fires every schedule due at {@code now} (up to a batch of them). A schedule that fails to fire
   * is logged and tried again on the next run; the others go on.
   *
   * @return how many new jobs were enqueued
   */
  public int runOnce(Instant now) {
    int enqueued = 0;
    for (Schedule schedule : store.due(now, BATCH)) {
      try {
        enqueued += fire(schedule, now);
      } catch (RuntimeException e) {
        log.warn("schedule '{}' could not fire; trying again later", schedule.name(), e);
      }
    }
    return enqueued;
  }

  private int fire(Schedule schedule, Instant now) {
    ScheduleDefinition definition = schedule.definition();
    FirePlan plan = FirePlan.of(definition, schedule.nextFireAt(), now);
    List<NewJob> jobs =
        plan.dueTimes().stream()
            .map(due -> definition.template().jobFor(definition.name(), due, keyWindow))
            .toList();
    ScheduleFiring firing =
        new ScheduleFiring(
            definition.name(),
            schedule.nextFireAt(),
            plan.nextFireAt(),
            jobs,
            plan.misses(),
            definition.overlapPolicy() == OverlapPolicy.SKIP);
    Optional<ScheduleFired> fired = store.fire(firing, now);
    if (fired.isEmpty()) {
      log.debug("schedule '{}' was fired by another coordinator", definition.name());
      return 0;
    }
    List<EnqueueResult> results = fired.get().enqueued();
    int fresh = (int) results.stream().filter(r -> !r.deduplicated()).count();
    announce.accept(results, now);
    if (fresh > 0) {
      events.onFired(definition.name(), fresh);
    }
    if (fired.get().misses() > 0) {
      log.info(
          "schedule '{}' dropped {} due times (misfire {}, overlap {})",
          definition.name(),
          fired.get().misses(),
          definition.misfirePolicy(),
          definition.overlapPolicy());
      events.onMissed(definition.name(), fired.get().misses());
    }
    return fresh;
  }
}
