package io.antrean.coordinator.core;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.schedule.CronRecurrence;
import io.antrean.coordinator.schedule.IntervalRecurrence;
import io.antrean.coordinator.schedule.JobTemplate;
import io.antrean.coordinator.schedule.MisfirePolicy;
import io.antrean.coordinator.schedule.OverlapPolicy;
import io.antrean.coordinator.schedule.Recurrence;
import io.antrean.coordinator.schedule.ScheduleDefinition;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns a {@link ScheduleCommand} into a {@link ScheduleDefinition}, reporting every fault at once
 * with its field under a prefix ({@code schedule.} for the RPCs). The template is checked by the
 * same rules as an Enqueue.
 */
final class ScheduleValidator {
  static final int DEFAULT_MISFIRE_LIMIT = 100;
  static final int MAX_MISFIRE_LIMIT = 1000;
  private static final int MAX_NAME_LENGTH = 64;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  private final EnqueueValidator jobs;

  ScheduleValidator(Settings settings) {
    this.jobs = new EnqueueValidator(settings);
  }

  /**
   * @throws ValidationException listing every fault
   */
  ScheduleDefinition toDefinition(ScheduleCommand cmd, Instant now, String prefix) {
    List<FieldViolation> out = new ArrayList<>();
    String nameProblem = nameProblem(cmd.name());
    if (nameProblem != null) {
      out.add(new FieldViolation(prefix + "name", nameProblem));
    }
    Recurrence recurrence = recurrence(cmd, prefix, out);
    JobTemplate template = template(cmd.template(), now, prefix + "template.", out);
    int limit = cmd.misfireLimit() == 0 ? DEFAULT_MISFIRE_LIMIT : cmd.misfireLimit();
    if (limit < 1 || limit > MAX_MISFIRE_LIMIT) {
      out.add(
          new FieldViolation(
              prefix + "misfire_limit", "must be 1 to " + MAX_MISFIRE_LIMIT + ", got " + limit));
    }
    if (!out.isEmpty()) {
      throw new ValidationException(out);
    }
    return new ScheduleDefinition(
        cmd.name(),
        recurrence,
        template,
        cmd.misfirePolicy() == null ? MisfirePolicy.SKIP : cmd.misfirePolicy(),
        limit,
        cmd.overlapPolicy() == null ? OverlapPolicy.ALLOW : cmd.overlapPolicy());
  }

  /** What is wrong with a schedule name, or null. */
  static String nameProblem(String name) {
    if (name.isEmpty()) {
      return "schedule name is required";
    }
    if (name.length() > MAX_NAME_LENGTH) {
      return "schedule name longer than " + MAX_NAME_LENGTH + " characters";
    }
    if (!NAME.matcher(name).matches()) {
      return "schedule name may hold only letters, digits, '.', '-' and '_': " + name;
    }
    return null;
  }

  private static Recurrence recurrence(
      ScheduleCommand cmd, String prefix, List<FieldViolation> out) {
    boolean hasCron = !cmd.cron().isBlank();
    if (hasCron == (cmd.interval() != null)) {
      out.add(new FieldViolation(prefix + "cron", "give exactly one of cron and interval"));
      return null;
    }
    if (!hasCron) {
      if (!cmd.timeZone().isEmpty()) {
        out.add(new FieldViolation(prefix + "time_zone", "a time zone goes with cron only"));
      }
      if (cmd.interval().compareTo(IntervalRecurrence.MIN_INTERVAL) < 0) {
        out.add(
            new FieldViolation(prefix + "interval", "must be at least 1 s, got " + cmd.interval()));
        return null;
      }
      return new IntervalRecurrence(cmd.interval());
    }
    ZoneId zone;
    try {
      zone = cmd.timeZone().isEmpty() ? ZoneOffset.UTC : ZoneId.of(cmd.timeZone());
    } catch (DateTimeException e) {
      out.add(new FieldViolation(prefix + "time_zone", "unknown time zone: " + cmd.timeZone()));
      return null;
    }
    try {
      return CronRecurrence.parse(cmd.cron(), zone);
    } catch (IllegalArgumentException e) {
      out.add(new FieldViolation(prefix + "cron", "bad cron expression: " + e.getMessage()));
      return null;
    }
  }

  private JobTemplate template(
      EnqueueCommand cmd, Instant now, String prefix, List<FieldViolation> out) {
    if (cmd.runAt() != null || cmd.delay() != null) {
      out.add(new FieldViolation(prefix + "run_at", "a scheduled job runs at its due time"));
    }
    if (!cmd.idempotencyKey().isEmpty()) {
      out.add(
          new FieldViolation(
              prefix + "idempotency_key", "a scheduled job's key is the schedule's and due time"));
    }
    if (!cmd.uniqueKey().isEmpty()) {
      out.add(
          new FieldViolation(
              prefix + "unique_key", "a scheduled job has no unique key; see overlap_policy"));
    }
    NewJob job = jobs.check(cmd, now, prefix, out);
    if (job == null) {
      return null;
    }
    return new JobTemplate(
        job.queue(),
        job.type(),
        job.payload(),
        job.contentType(),
        job.priority(),
        job.retryPolicy());
  }
}
