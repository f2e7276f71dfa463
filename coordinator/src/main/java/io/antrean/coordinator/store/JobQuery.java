package io.antrean.coordinator.store;

import io.antrean.coordinator.job.JobState;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * A filter, a sort order and a page position for {@link JobStore#list}. Null filters match
 * everything.
 *
 * @param errorContains a case-insensitive substring of the job's last error
 * @param createdAfter created at or after this instant
 * @param createdBefore created before this instant
 * @param idempotencyKey the job's idempotency key, exactly
 * @param oldestFirst ascending ids (creation order) instead of newest first
 * @param beforeId the page token: the last id of the previous page; only jobs past it in the sort
 *     order (smaller ids newest first, larger ids oldest first); null for the first page
 * @param limit the page size, at least 1
 */
public record JobQuery(
    @Nullable String queue,
    @Nullable String type,
    @Nullable JobState state,
    @Nullable String errorContains,
    @Nullable Instant createdAfter,
    @Nullable Instant createdBefore,
    @Nullable String idempotencyKey,
    boolean oldestFirst,
    @Nullable Long beforeId,
    int limit) {
  public JobQuery {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }

  /** Newest first, filtered by queue, type and state only. */
  public JobQuery(
      @Nullable String queue,
      @Nullable String type,
      @Nullable JobState state,
      @Nullable Long beforeId,
      int limit) {
    this(queue, type, state, null, null, null, null, false, beforeId, limit);
  }
}
