package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.jdbc.ScheduleSession;
import io.antrean.coordinator.store.jdbc.ScheduleTransactions;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Schedule work on PostgreSQL: each unit one pooled READ COMMITTED transaction, enqueues through
 * {@link ProducerWrites} in it, so the jobs' NOTIFY goes out with the commit.
 */
final class PostgresScheduleTransactions implements ScheduleTransactions {
  private final PooledTransactions db;

  PostgresScheduleTransactions(PooledTransactions db) {
    this.db = db;
  }

  @Override
  public <T> T read(String what, Work<T> work) {
    return db.autoCommitted(what, tx -> work.run(session(tx)));
  }

  @Override
  public <T> T write(String what, Work<T> work) {
    return db.inTransaction(what, tx -> work.run(session(tx)));
  }

  private static ScheduleSession session(Tx tx) {
    return new ScheduleSession() {
      @Override
      public PreparedStatement prepare(String sql) throws SQLException {
        return tx.prepare(sql);
      }

      @Override
      public List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) throws SQLException {
        return ProducerWrites.enqueue(tx, jobs, now);
      }
    };
  }
}
