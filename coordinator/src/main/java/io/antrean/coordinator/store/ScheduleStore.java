package io.antrean.coordinator.store;

import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.schedule.ScheduleDefinition;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The durable schedules of a {@link JobStore}, kept in the same database so that a fire and the
 * jobs it enqueues commit together.
 *
 * <p>Contract (checked by {@code ScheduleContract} on every store): time is a parameter; a method
 * that returns has made its change durable; {@link #fire} is a compare-and-set on the schedule's
 * next fire time, so of many coordinators firing one due time exactly one succeeds, and its jobs
 * are stored in the same atomic change as the schedule's new next fire time. Returned schedules are
 * snapshots. Thread-safe.
 */
public interface ScheduleStore {

  /**
   * Stores a new schedule, running, whose first fire time is {@code nextFireAt}.
   *
   * @throws ScheduleExistsException if one of that name exists; nothing changes
   */
  Schedule create(ScheduleDefinition definition, Instant nextFireAt, Instant now);

  /**
   * Replaces a schedule's definition and next fire time; its pause, counters and last fire stay.
   *
   * @throws ScheduleNotFoundException if none has that name
   */
  Schedule update(ScheduleDefinition definition, Instant nextFireAt, Instant now);

  /**
   * Deletes a schedule; the jobs it enqueued stay.
   *
   * @return false if none had that name
   */
  boolean delete(String name);

  /** The schedule with the state of its last job, or empty. */
  Optional<Schedule> get(String name);

  /** Every schedule ordered by name, each with the state of its last job. */
  List<Schedule> list();

  /**
   * Pauses (records {@code now} unless already paused) or resumes a schedule. Resuming sets the
   * next fire time to {@code nextFireAtOnResume}; resuming a running schedule changes nothing.
   *
   * @throws ScheduleNotFoundException if none has that name
   */
  Schedule setPaused(String name, boolean paused, Instant nextFireAtOnResume, Instant now);

  /** Up to {@code limit} running schedules whose next fire time is at or before {@code now}. */
  List<Schedule> due(Instant now, int limit);

  /**
   * Fires a schedule: if it is running and its next fire time is still {@code
   * firing.expectedNextFireAt()}, moves the next fire time on and enqueues the firing's jobs (see
   * {@link JobStore#enqueue}) in one atomic change, and records the last fire and the counters.
   *
   * @return what was stored; empty when the schedule moved on, was paused or deleted meanwhile
   *     (another coordinator fired it), in which case nothing changed
   */
  Optional<ScheduleFired> fire(ScheduleFiring firing, Instant now);
}
