package io.antrean.coordinator.store;

import io.antrean.coordinator.job.JobState;
import javax.annotation.Nullable;

/**
 * A filter and a page position for {@link JobStore#list}. Null filters match everything.
 *
 * @param beforeId only jobs with a smaller id (the page token); null for the first page
 * @param limit the page size, at least 1
 */
public record JobQuery(
    @Nullable String queue,
    @Nullable String type,
    @Nullable JobState state,
    @Nullable Long beforeId,
    int limit) {
  public JobQuery {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }
}
