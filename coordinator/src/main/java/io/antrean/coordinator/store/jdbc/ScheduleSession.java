package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.EnqueueResult;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * One unit of schedule work on a store's connection: statements, and the store's own enqueue inside
 * the same transaction. Belongs to the thread running the work.
 */
public interface ScheduleSession {

  /** A statement on the unit's connection; the store closes (or caches) it. */
  PreparedStatement prepare(String sql) throws SQLException;

  /** The store's enqueue (idempotency keys included), inside this unit's transaction. */
  List<EnqueueResult> enqueue(List<NewJob> jobs, Instant now) throws SQLException;
}
