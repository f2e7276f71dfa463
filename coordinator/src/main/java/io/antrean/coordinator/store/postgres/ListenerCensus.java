package io.antrean.coordinator.store.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Whether another coordinator of the same installation listens for ready jobs on the database, so
 * that this one's changes are worth a {@code NOTIFY} ({@link JobsReadyAnnouncer}). A coordinator
 * that is alone on its schema tells its own subscribers in-process instead: a notification costs a
 * transaction on the server, a wake-up of every listening backend and a read on every listening
 * connection, about half the server's CPU for a single Enqueue.
 *
 * <p>Every listening connection carries the installation's {@link #applicationName} (its schema in
 * it) and, once its {@code LISTEN} is in place, says so with a {@link #joinNote} on the channel.
 * The listener takes a census (the other sessions with its application name in {@code
 * pg_stat_activity}) when it starts listening and every few seconds after; a join note of the same
 * installation from another session counts as another listener at once. Until a census has been
 * taken, or while the listening connection is down, the answer is "maybe", and notifications are
 * sent as before.
 *
 * <p>A coordinator that starts listening between another's census and its hearing the join note
 * misses that other's notifications for that moment; its periodic backup sweep finds those jobs, as
 * it finds those of any lost notification. The census needs the other coordinators' sessions to be
 * visible with their application names, which PostgreSQL shows to every role. Thread-safe.
 */
final class ListenerCensus {
  private static final String APPLICATION = "antrean-jobs-ready-listener";
  // A queue name has no space (Names), so no join note is ever taken for a queue.
  private static final String JOINED = "joined ";

  // The others are matched against this session's own application name as the server keeps it
  // (cut to 63 bytes), so a long schema name cuts both sides alike. No row for this session (its
  // activity not tracked) or no application name leaves the answer unknown.
  private static final String COUNT_OTHERS =
      "SELECT (SELECT count(*) FROM pg_stat_activity AS other"
          + " WHERE other.datname = me.datname AND other.application_name = me.application_name"
          + " AND other.pid <> me.pid)"
          + " FROM pg_stat_activity AS me"
          + " WHERE me.pid = pg_backend_pid() AND me.application_name <> ''";

  private enum Answer {
    UNKNOWN,
    ALONE,
    OTHERS
  }

  private final String schema;
  private volatile Answer answer = Answer.UNKNOWN;

  ListenerCensus(String schema) {
    this.schema = schema;
  }

  /** The application name of every listening connection of this installation. */
  String applicationName() {
    return APPLICATION + " " + schema;
  }

  /** The payload a listening connection of this installation sends once its LISTEN is in place. */
  String joinNote() {
    return JOINED + schema;
  }

  /** Whether a notification's payload is a join note (of any installation), not a queue. */
  static boolean isJoinNote(String payload) {
    return payload.startsWith(JOINED);
  }

  /** False only when the last census found no other listener and none has joined since. */
  boolean othersMayListen() {
    return answer != Answer.ALONE;
  }

  /**
   * Counts the other listening sessions, on the listening connection itself.
   *
   * @throws SQLException as the connection fails; the answer is then unknown
   */
  void take(Connection listening) throws SQLException {
    try (Statement statement = listening.createStatement();
        ResultSet row = statement.executeQuery(COUNT_OTHERS)) {
      answer = !row.next() ? Answer.UNKNOWN : row.getLong(1) > 0 ? Answer.OTHERS : Answer.ALONE;
    } catch (SQLException e) {
      answer = Answer.UNKNOWN;
      throw e;
    }
  }

  /** Another session sent a join note; one of another installation is ignored. */
  void heardJoinNote(String payload) {
    if (joinNote().equals(payload)) {
      answer = Answer.OTHERS;
    }
  }

  /** The listening connection is down or closed: nothing is known about the others. */
  void unknown() {
    answer = Answer.UNKNOWN;
  }
}
