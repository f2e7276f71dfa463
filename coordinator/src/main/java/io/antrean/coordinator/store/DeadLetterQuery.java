package io.antrean.coordinator.store;

import java.time.Instant;
import javax.annotation.Nullable;

/**
 * A filter over the dead-letter queue and a page position. Null filters match everything.
 *
 * @param errorContains a case-insensitive substring of the job's last error
 * @param failedAfter dead-lettered (finishedAt) at or after this instant
 * @param failedBefore dead-lettered before this instant
 * @param beforeId only jobs with a smaller id (the page token); null for the first page
 * @param limit the page size, at least 1
 */
public record DeadLetterQuery(
    @Nullable String queue,
    @Nullable String type,
    @Nullable String errorContains,
    @Nullable Instant failedAfter,
    @Nullable Instant failedBefore,
    @Nullable Long beforeId,
    int limit) {
  public DeadLetterQuery {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }

  /** True when no filter is set. */
  public boolean matchesEverything() {
    return queue == null
        && type == null
        && errorContains == null
        && failedAfter == null
        && failedBefore == null;
  }

  /** The same filter at another page position. */
  public DeadLetterQuery withPage(@Nullable Long newBeforeId, int newLimit) {
    return new DeadLetterQuery(
        queue, type, errorContains, failedAfter, failedBefore, newBeforeId, newLimit);
  }
}
