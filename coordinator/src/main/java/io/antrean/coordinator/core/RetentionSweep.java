package io.antrean.coordinator.core;

import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.JobStore;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes finished jobs past their retention period and forgets expired idempotency keys, in
 * batches, so the store stays bounded. Safe to run at any time and on every coordinator at once.
 */
public final class RetentionSweep {
  private static final Logger log = LoggerFactory.getLogger(RetentionSweep.class);
  private static final int BATCH = 1000;

  private final JobStore store;
  private final Retention retention;

  public RetentionSweep(JobStore store, Retention retention) {
    this.store = store;
    this.retention = retention;
  }

  /**
   * One sweep as of {@code now}.
   *
   * @return how many jobs were deleted
   */
  public int runOnce(Instant now) {
    int deleted =
        delete(JobState.SUCCEEDED, retention.succeeded(), now)
            + delete(JobState.CANCELLED, retention.cancelled(), now)
            + delete(JobState.FAILED, retention.failed(), now);
    int keys = 0;
    int batch;
    do {
      batch = store.forgetExpiredIdempotencyKeys(now, BATCH);
      keys += batch;
    } while (batch == BATCH);
    if (deleted > 0 || keys > 0) {
      log.info("retention deleted {} finished jobs and forgot {} idempotency keys", deleted, keys);
    }
    return deleted;
  }

  private int delete(JobState state, Duration keep, Instant now) {
    int total = 0;
    int batch;
    do {
      batch = store.deleteFinished(state, now.minus(keep), BATCH);
      total += batch;
    } while (batch == BATCH);
    return total;
  }
}
