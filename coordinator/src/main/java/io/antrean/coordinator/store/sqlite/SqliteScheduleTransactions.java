package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.jdbc.ScheduleSession;
import io.antrean.coordinator.store.jdbc.ScheduleTransactions;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Schedule work on SQLite: reads on the read pool, changes on the one writer thread (group commit,
 * one savepoint per change), enqueues through {@link ProducerWrites} on the same connection.
 */
final class SqliteScheduleTransactions implements ScheduleTransactions {
  private final SqliteWriter writer;
  private final ReadConnections reads;

  SqliteScheduleTransactions(SqliteWriter writer, ReadConnections reads) {
    this.writer = writer;
    this.reads = reads;
  }

  @Override
  public <T> T read(String what, Work<T> work) {
    return reads.read(what, c -> work.run(session(c)));
  }

  @Override
  public <T> T write(String what, Work<T> work) {
    return writer.execute(what, c -> work.run(session(c)));
  }

  private static ScheduleSession session(CachedConnection connection) {
    return new ScheduleSession() {
      @Override
      public PreparedStatement prepare(String sql) throws SQLException {
        return connection.prepare(sql);
      }

      @Override
      public List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) throws SQLException {
        return ProducerWrites.enqueue(connection, jobs, now);
      }
    };
  }
}
