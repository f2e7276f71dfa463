package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.schedule.CronRecurrence;
import io.antrean.coordinator.schedule.IntervalRecurrence;
import io.antrean.coordinator.schedule.JobTemplate;
import io.antrean.coordinator.schedule.MisfirePolicy;
import io.antrean.coordinator.schedule.OverlapPolicy;
import io.antrean.coordinator.schedule.Recurrence;
import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.schedule.ScheduleDefinition;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;

/**
 * The {@code schedules} table's columns, the same in both databases: times are epoch microseconds
 * in 64-bit integer columns, so every statement is plain SQL that both understand.
 */
final class ScheduleRows {
  /** The definition's 16 columns, in binding order. */
  static final String DEFINITION_COLUMNS =
      "cron, time_zone, interval_micros, queue, type, payload, content_type, priority,"
          + " max_attempts, initial_backoff_micros, backoff_multiplier, max_backoff_micros,"
          + " max_lease_expiries, misfire_policy, misfire_limit, overlap_policy";

  /** A schedule with its last job's state, for {@link #read}. */
  static final String SELECT =
      "SELECT s.name, s.cron, s.time_zone, s.interval_micros, s.queue, s.type, s.payload,"
          + " s.content_type, s.priority, s.max_attempts, s.initial_backoff_micros,"
          + " s.backoff_multiplier, s.max_backoff_micros, s.max_lease_expiries, s.misfire_policy,"
          + " s.misfire_limit, s.overlap_policy, s.paused_micros, s.next_fire_micros,"
          + " s.last_fire_micros, s.last_job_id, j.state, s.fires, s.misses, s.created_micros,"
          + " s.updated_micros FROM schedules s LEFT JOIN jobs j ON j.id = s.last_job_id";

  private ScheduleRows() {}

  static long micros(Instant time) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, time);
  }

  static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }

  /** Binds the definition's columns (all but the name) from {@code first}; returns the next. */
  static int bindDefinition(PreparedStatement s, int first, ScheduleDefinition d)
      throws SQLException {
    int i = first;
    Recurrence recurrence = d.recurrence();
    if (recurrence instanceof CronRecurrence cron) {
      s.setString(i++, cron.expression());
      s.setString(i++, cron.zone().getId());
      s.setNull(i++, Types.BIGINT);
    } else {
      s.setNull(i++, Types.VARCHAR);
      s.setNull(i++, Types.VARCHAR);
      s.setLong(i++, DurationColumns.toMicros(((IntervalRecurrence) recurrence).interval()));
    }
    JobTemplate t = d.template();
    s.setString(i++, t.queue());
    s.setString(i++, t.type());
    s.setBytes(i++, t.payload());
    s.setString(i++, t.contentType());
    s.setInt(i++, t.priority());
    RetryPolicy p = t.retryPolicy();
    s.setInt(i++, p.maxAttempts());
    s.setLong(i++, DurationColumns.toMicros(p.initialBackoff()));
    s.setDouble(i++, p.multiplier());
    s.setLong(i++, DurationColumns.toMicros(p.maxBackoff()));
    s.setInt(i++, p.maxLeaseExpiries());
    s.setString(i++, d.misfirePolicy().name());
    s.setInt(i++, d.misfireLimit());
    s.setString(i++, d.overlapPolicy().name());
    return i;
  }

  /** The schedule on the current row of a {@link #SELECT}. */
  static Schedule read(ResultSet row) throws SQLException {
    String cron = row.getString(2);
    Recurrence recurrence =
        cron != null
            ? CronRecurrence.parse(cron, ZoneId.of(row.getString(3)))
            : new IntervalRecurrence(DurationColumns.fromMicros(row.getLong(4)));
    JobTemplate template =
        new JobTemplate(
            row.getString(5),
            row.getString(6),
            row.getBytes(7),
            row.getString(8),
            row.getInt(9),
            new RetryPolicy(
                row.getInt(10),
                DurationColumns.fromMicros(row.getLong(11)),
                row.getDouble(12),
                DurationColumns.fromMicros(row.getLong(13)),
                row.getInt(14)));
    ScheduleDefinition definition =
        new ScheduleDefinition(
            row.getString(1),
            recurrence,
            template,
            MisfirePolicy.valueOf(row.getString(15)),
            row.getInt(16),
            OverlapPolicy.valueOf(row.getString(17)));
    long lastJob = row.getLong(21);
    boolean hasLastJob = !row.wasNull();
    String lastState = row.getString(22);
    return new Schedule(
        definition,
        optionalInstant(row, 18),
        instant(row.getLong(19)),
        optionalInstant(row, 20),
        hasLastJob ? lastJob : null,
        lastState == null ? null : JobState.valueOf(lastState),
        row.getLong(23),
        row.getLong(24),
        instant(row.getLong(25)),
        instant(row.getLong(26)));
  }

  private static Instant optionalInstant(ResultSet row, int column) throws SQLException {
    long micros = row.getLong(column);
    return row.wasNull() ? null : instant(micros);
  }
}
