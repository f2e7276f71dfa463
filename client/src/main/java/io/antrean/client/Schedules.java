package io.antrean.client;

import io.antrean.proto.v1.Schedule;
import io.antrean.proto.v1.ScheduleDefinition;
import java.util.List;

/**
 * Durable schedules (the coordinator's {@code antrean.v1.ScheduleService}): named recurring
 * enqueues on a cron expression in a time zone or a fixed interval, each due time enqueuing exactly
 * one job.
 *
 * <p>Obtain one from {@link AntreanClient#schedules()}. It shares that client's connection and
 * deadline, needs no closing, and is thread-safe. Calls fail as {@link AntreanClient}'s do; with
 * bearer tokens, changes need the admin role and reads the reader or admin role ({@code
 * PERMISSION_DENIED} otherwise, as a plain {@link AntreanException}).
 */
public interface Schedules {

  /**
   * Creates a schedule; it first fires at its first due time after now.
   *
   * @return the schedule with its next due times
   * @throws InvalidArgumentException for a bad name, cron, time zone, interval or template (field
   *     violations under {@code schedule.})
   * @throws AlreadyExistsException if a schedule of that name exists
   */
  Schedule create(ScheduleDefinition definition);

  /**
   * Replaces a schedule's definition; its next fire time is computed again from now.
   *
   * @throws InvalidArgumentException for a bad definition
   * @throws AntreanException with status NOT_FOUND if there is no such schedule
   */
  Schedule update(ScheduleDefinition definition);

  /**
   * Deletes a schedule; the jobs it enqueued stay.
   *
   * @throws AntreanException with status NOT_FOUND if there is no such schedule
   */
  void delete(String name);

  /**
   * One schedule with its next due times, last fire and counters.
   *
   * @throws AntreanException with status NOT_FOUND if there is no such schedule
   */
  Schedule get(String name);

  /** Every schedule, ordered by name. */
  List<Schedule> list();

  /**
   * Stops a schedule firing; idempotent.
   *
   * @throws AntreanException with status NOT_FOUND if there is no such schedule
   */
  Schedule pause(String name);

  /**
   * Fires a paused schedule again from its first due time after now; idempotent.
   *
   * @throws AntreanException with status NOT_FOUND if there is no such schedule
   */
  Schedule resume(String name);
}
