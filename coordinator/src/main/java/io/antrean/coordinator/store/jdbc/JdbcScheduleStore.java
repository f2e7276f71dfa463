package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.schedule.JobTemplate;
import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.schedule.ScheduleDefinition;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.ScheduleExistsException;
import io.antrean.coordinator.store.ScheduleFired;
import io.antrean.coordinator.store.ScheduleFiring;
import io.antrean.coordinator.store.ScheduleNotFoundException;
import io.antrean.coordinator.store.ScheduleStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ScheduleStore} of both JDBC stores: one set of SQL, run through the store's own
 * transactions ({@link ScheduleTransactions}) so a fire's jobs go through the store's own enqueue
 * in the same transaction.
 *
 * <p>Exactly one fire per due time, however many coordinators race: {@link #fire} first moves the
 * next fire time with an {@code UPDATE ... WHERE next_fire_micros = <the time read>}. On PostgreSQL
 * the second coordinator's update waits for the first one's row lock and, once that commits, finds
 * the condition false and changes nothing; on SQLite the one writer serializes them. The jobs'
 * idempotency keys ({@link JobTemplate#idempotencyKey}) are a second guard. Thread-safe.
 */
public final class JdbcScheduleStore implements ScheduleStore {
  private static final String INSERT =
      "INSERT INTO schedules (name, "
          + ScheduleRows.DEFINITION_COLUMNS
          + ", next_fire_micros, fires, misses, created_micros, updated_micros)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?)"
          + " ON CONFLICT (name) DO NOTHING";
  private static final String UPDATE =
      "UPDATE schedules SET ("
          + ScheduleRows.DEFINITION_COLUMNS
          + ", next_fire_micros,"
          + " updated_micros) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " WHERE name = ?";
  private static final String DELETE = "DELETE FROM schedules WHERE name = ?";
  private static final String BY_NAME = ScheduleRows.SELECT + " WHERE s.name = ?";
  private static final String ALL = ScheduleRows.SELECT + " ORDER BY s.name";
  private static final String DUE =
      ScheduleRows.SELECT
          + " WHERE s.paused_micros IS NULL AND s.next_fire_micros <= ?"
          + " ORDER BY s.next_fire_micros, s.name LIMIT ?";
  private static final String PAUSE =
      "UPDATE schedules SET paused_micros = ?, updated_micros = ?"
          + " WHERE name = ? AND paused_micros IS NULL";
  private static final String RESUME =
      "UPDATE schedules SET paused_micros = NULL, next_fire_micros = ?, updated_micros = ?"
          + " WHERE name = ? AND paused_micros IS NOT NULL";
  private static final String MOVE_ON =
      "UPDATE schedules SET next_fire_micros = ?, updated_micros = ?"
          + " WHERE name = ? AND next_fire_micros = ? AND paused_micros IS NULL";
  private static final String LAST_JOB_STATE =
      "SELECT j.state FROM schedules s JOIN jobs j ON j.id = s.last_job_id WHERE s.name = ?";
  private static final String RECORD_FIRE =
      "UPDATE schedules SET fires = fires + ?, misses = misses + ?, last_fire_micros = ?,"
          + " last_job_id = ? WHERE name = ?";
  private static final String RECORD_MISSES =
      "UPDATE schedules SET misses = misses + ? WHERE name = ?";

  private final ScheduleTransactions db;

  public JdbcScheduleStore(ScheduleTransactions db) {
    this.db = Objects.requireNonNull(db, "db");
  }

  @Override
  public Schedule create(ScheduleDefinition definition, Instant nextFireAt, Instant now) {
    return db.write(
        "createSchedule",
        s -> {
          PreparedStatement insert = s.prepare(INSERT);
          insert.setString(1, definition.name());
          int i = ScheduleRows.bindDefinition(insert, 2, definition);
          insert.setLong(i++, ScheduleRows.micros(nextFireAt));
          insert.setLong(i++, ScheduleRows.micros(now));
          insert.setLong(i, ScheduleRows.micros(now));
          if (insert.executeUpdate() == 0) {
            throw new ScheduleExistsException(definition.name());
          }
          return find(s, definition.name());
        });
  }

  @Override
  public Schedule update(ScheduleDefinition definition, Instant nextFireAt, Instant now) {
    return db.write(
        "updateSchedule",
        s -> {
          PreparedStatement update = s.prepare(UPDATE);
          int i = ScheduleRows.bindDefinition(update, 1, definition);
          update.setLong(i++, ScheduleRows.micros(nextFireAt));
          update.setLong(i++, ScheduleRows.micros(now));
          update.setString(i, definition.name());
          if (update.executeUpdate() == 0) {
            throw new ScheduleNotFoundException(definition.name());
          }
          return find(s, definition.name());
        });
  }

  @Override
  public boolean delete(String name) {
    return db.write(
        "deleteSchedule",
        s -> {
          PreparedStatement delete = s.prepare(DELETE);
          delete.setString(1, name);
          return delete.executeUpdate() > 0;
        });
  }

  @Override
  public Optional<Schedule> get(String name) {
    return db.read("getSchedule", s -> lookup(s, name));
  }

  @Override
  public List<Schedule> list() {
    return db.read("listSchedules", s -> readAll(s.prepare(ALL)));
  }

  @Override
  public Schedule setPaused(String name, boolean paused, Instant nextFireAtOnResume, Instant now) {
    return db.write(
        paused ? "pauseSchedule" : "resumeSchedule",
        s -> {
          PreparedStatement change = s.prepare(paused ? PAUSE : RESUME);
          change.setLong(1, ScheduleRows.micros(paused ? now : nextFireAtOnResume));
          change.setLong(2, ScheduleRows.micros(now));
          change.setString(3, name);
          change.executeUpdate();
          return find(s, name);
        });
  }

  @Override
  public List<Schedule> due(Instant now, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
    return db.read(
        "dueSchedules",
        s -> {
          PreparedStatement due = s.prepare(DUE);
          due.setLong(1, ScheduleRows.micros(now));
          due.setInt(2, limit);
          return readAll(due);
        });
  }

  @Override
  public Optional<ScheduleFired> fire(ScheduleFiring firing, Instant now) {
    Objects.requireNonNull(now, "now");
    return db.write("fireSchedule", s -> fire(s, firing, now));
  }

  private static Optional<ScheduleFired> fire(ScheduleSession s, ScheduleFiring f, Instant now)
      throws SQLException {
    PreparedStatement moveOn = s.prepare(MOVE_ON);
    moveOn.setLong(1, ScheduleRows.micros(f.nextFireAt()));
    moveOn.setLong(2, ScheduleRows.micros(now));
    moveOn.setString(3, f.name());
    moveOn.setLong(4, ScheduleRows.micros(f.expectedNextFireAt()));
    if (moveOn.executeUpdate() == 0) {
      return Optional.empty();
    }
    if (f.jobs().isEmpty() || (f.skipWhileActive() && lastJobActive(s, f.name()))) {
      long misses = f.misses() + f.jobs().size();
      PreparedStatement record = s.prepare(RECORD_MISSES);
      record.setLong(1, misses);
      record.setString(2, f.name());
      record.executeUpdate();
      return Optional.of(new ScheduleFired(List.of(), misses));
    }
    List<EnqueueResult> enqueued = s.enqueue(f.jobs(), now);
    Job last = enqueued.get(enqueued.size() - 1).job();
    PreparedStatement record = s.prepare(RECORD_FIRE);
    record.setLong(1, enqueued.stream().filter(r -> !r.deduplicated()).count());
    record.setLong(2, f.misses());
    record.setLong(3, ScheduleRows.micros(last.runAt()));
    record.setLong(4, last.id());
    record.setString(5, f.name());
    record.executeUpdate();
    return Optional.of(new ScheduleFired(enqueued, f.misses()));
  }

  private static boolean lastJobActive(ScheduleSession s, String name) throws SQLException {
    PreparedStatement select = s.prepare(LAST_JOB_STATE);
    select.setString(1, name);
    try (ResultSet row = select.executeQuery()) {
      if (!row.next()) {
        return false;
      }
      JobState state = JobState.valueOf(row.getString(1));
      return state == JobState.PENDING || state == JobState.RUNNING;
    }
  }

  private static Schedule find(ScheduleSession s, String name) throws SQLException {
    return lookup(s, name).orElseThrow(() -> new ScheduleNotFoundException(name));
  }

  private static Optional<Schedule> lookup(ScheduleSession s, String name) throws SQLException {
    PreparedStatement select = s.prepare(BY_NAME);
    select.setString(1, name);
    List<Schedule> found = readAll(select);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  private static List<Schedule> readAll(PreparedStatement select) throws SQLException {
    List<Schedule> schedules = new ArrayList<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        schedules.add(ScheduleRows.read(rows));
      }
    }
    return schedules;
  }
}
