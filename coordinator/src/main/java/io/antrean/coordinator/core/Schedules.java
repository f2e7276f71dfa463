package io.antrean.coordinator.core;

import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.schedule.ScheduleDefinition;
import io.antrean.coordinator.store.ScheduleExistsException;
import io.antrean.coordinator.store.ScheduleNotFoundException;
import io.antrean.coordinator.store.ScheduleStore;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The operations on durable schedules behind the ScheduleService and its HTTP routes: validate,
 * compute the next fire time, store. Firing is {@link ScheduleDuty}'s. Thread-safe.
 */
public final class Schedules {
  /** How many upcoming due times a schedule shows. */
  public static final int UPCOMING = 5;

  private static final String PREFIX = "schedule.";

  private final ScheduleStore store;
  private final ScheduleValidator validator;
  private final Clock clock;

  public Schedules(ScheduleStore store, Settings settings, Clock clock) {
    this.store = store;
    this.validator = new ScheduleValidator(settings);
    this.clock = clock;
  }

  /**
   * @throws ValidationException for a bad definition (fields under {@code schedule.})
   * @throws ScheduleExistsException if the name is taken
   */
  public Schedule create(ScheduleCommand command) {
    Instant now = now();
    ScheduleDefinition definition = validator.toDefinition(command, now, PREFIX);
    return store.create(definition, firstAfter(definition, now), now);
  }

  /**
   * Replaces the definition; the next fire time is computed again from now.
   *
   * @throws ValidationException for a bad definition
   * @throws ScheduleNotFoundException if there is no such schedule
   */
  public Schedule update(ScheduleCommand command) {
    Instant now = now();
    ScheduleDefinition definition = validator.toDefinition(command, now, PREFIX);
    return store.update(definition, firstAfter(definition, now), now);
  }

  /**
   * Creates the schedule, or updates the one of that name: for schedules declared in the
   * configuration file, applied at every start.
   */
  public Schedule declare(ScheduleCommand command) {
    try {
      return create(command);
    } catch (ScheduleExistsException e) {
      Instant now = now();
      ScheduleDefinition definition = validator.toDefinition(command, now, PREFIX);
      Schedule existing = get(definition.name());
      if (existing.definition().equals(definition)) {
        // Unchanged: keep its next fire time, so a restart neither skips nor repeats a due time.
        return existing;
      }
      return store.update(definition, firstAfter(definition, now), now);
    }
  }

  /**
   * @throws ScheduleNotFoundException if there is no such schedule
   */
  public void delete(String name) {
    checkName(name);
    if (!store.delete(name)) {
      throw new ScheduleNotFoundException(name);
    }
  }

  /**
   * @throws ScheduleNotFoundException if there is no such schedule
   */
  public Schedule get(String name) {
    checkName(name);
    return store.get(name).orElseThrow(() -> new ScheduleNotFoundException(name));
  }

  /** Every schedule, ordered by name. */
  public List<Schedule> list() {
    return store.list();
  }

  /**
   * Stops firing; idempotent.
   *
   * @throws ScheduleNotFoundException if there is no such schedule
   */
  public Schedule pause(String name) {
    checkName(name);
    Instant now = now();
    return store.setPaused(name, true, now, now);
  }

  /**
   * Fires again from the first due time after now; idempotent.
   *
   * @throws ScheduleNotFoundException if there is no such schedule
   */
  public Schedule resume(String name) {
    Schedule schedule = get(name);
    Instant now = now();
    return store.setPaused(name, false, firstAfter(schedule.definition(), now), now);
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  private static Instant firstAfter(ScheduleDefinition definition, Instant now) {
    return definition.recurrence().nextAfter(now).truncatedTo(ChronoUnit.MICROS);
  }

  private static void checkName(String name) {
    String problem = ScheduleValidator.nameProblem(name);
    if (problem != null) {
      throw new ValidationException(List.of(new FieldViolation("name", problem)));
    }
  }
}
