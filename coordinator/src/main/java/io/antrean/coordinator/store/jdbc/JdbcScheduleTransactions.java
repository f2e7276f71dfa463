package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.EnqueueResult;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Schedule work through a {@link JdbcJobStore}'s read and transaction runners, enqueueing as the
 * store does. Thread-safe when the runners are.
 */
final class JdbcScheduleTransactions implements ScheduleTransactions {
  private final JdbcJobStore.Runner read;
  private final JdbcJobStore.Runner transaction;

  JdbcScheduleTransactions(JdbcJobStore.Runner read, JdbcJobStore.Runner transaction) {
    this.read = read;
    this.transaction = transaction;
  }

  @Override
  public <T> T read(String what, Work<T> work) {
    return read.run(what, s -> work.run(session(s)));
  }

  @Override
  public <T> T write(String what, Work<T> work) {
    return transaction.run(what, s -> work.run(session(s)));
  }

  private static ScheduleSession session(JdbcSession s) {
    return new ScheduleSession() {
      @Override
      public PreparedStatement prepare(String sql) throws SQLException {
        return s.prepare(sql);
      }

      @Override
      public List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) throws SQLException {
        return s.dialect().enqueue(s, jobs, now);
      }
    };
  }
}
