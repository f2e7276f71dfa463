package io.antrean.coordinator.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A cron expression evaluated in a time zone, parsed and evaluated by cron-utils: 5 fields (Unix:
 * minute, hour, day of month, month, day of week) or 6 fields with seconds first (Spring). Due
 * times fall on whole seconds, so daylight-saving gaps and repeats follow cron-utils' rules.
 */
public final class CronRecurrence implements Recurrence {
  private static final CronParser UNIX =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
  private static final CronParser WITH_SECONDS =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING53));

  private final String expression;
  private final ZoneId zone;
  private final ExecutionTime times;

  private CronRecurrence(String expression, ZoneId zone, ExecutionTime times) {
    this.expression = expression;
    this.zone = zone;
    this.times = times;
  }

  /**
   * @throws IllegalArgumentException with cron-utils' description of what is wrong
   */
  public static CronRecurrence parse(String expression, ZoneId zone) {
    Objects.requireNonNull(expression, "expression");
    Objects.requireNonNull(zone, "zone");
    String trimmed = expression.trim();
    int fields = trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    CronParser parser =
        switch (fields) {
          case 5 -> UNIX;
          case 6 -> WITH_SECONDS;
          default ->
              throw new IllegalArgumentException(
                  "a cron expression has 5 fields (6 with seconds first), got " + fields);
        };
    Cron cron = parser.parse(trimmed);
    cron.validate();
    CronRecurrence recurrence = new CronRecurrence(trimmed, zone, ExecutionTime.forCron(cron));
    // An expression that can never match (say, 30 February) would fire never; refuse it now.
    recurrence.nextAfter(Instant.EPOCH);
    return recurrence;
  }

  public String expression() {
    return expression;
  }

  public ZoneId zone() {
    return zone;
  }

  @Override
  public Instant nextAfter(Instant time) {
    // From the whole second: cron-utils may answer a time with a fraction of a second (even the
    // time itself) when given one; due times fall on whole seconds.
    Instant next = execution(time.truncatedTo(ChronoUnit.SECONDS));
    while (!next.isAfter(time)) {
      next = execution(next);
    }
    return next;
  }

  /** cron-utils' next execution strictly after {@code from}, on its whole second. */
  private Instant execution(Instant from) {
    return times
        .nextExecution(ZonedDateTime.ofInstant(from, zone))
        .map(z -> z.toInstant().truncatedTo(ChronoUnit.SECONDS))
        .orElseThrow(() -> new IllegalArgumentException("cron '" + expression + "' never fires"));
  }

  @Override
  public Instant latestAtOrBefore(Instant due, Instant now) {
    // Due times fall on whole seconds: the last one before the next whole second is at or before
    // now.
    Instant bound = now.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
    Instant latest =
        times
            .lastExecution(ZonedDateTime.ofInstant(bound, zone))
            .map(ZonedDateTime::toInstant)
            .orElse(due);
    return latest.isBefore(due) ? due : latest;
  }

  @Override
  public Instant previousBefore(Instant due) {
    return times
        .lastExecution(ZonedDateTime.ofInstant(due, zone))
        .map(ZonedDateTime::toInstant)
        .orElse(Instant.MIN);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CronRecurrence other
        && expression.equals(other.expression)
        && zone.equals(other.zone);
  }

  @Override
  public int hashCode() {
    return Objects.hash(expression, zone);
  }

  @Override
  public String toString() {
    return "cron '" + expression + "' in " + zone;
  }
}
