package io.antrean.coordinator.store;

import io.antrean.coordinator.job.JobState;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One job another job depends on, as it stands: what a fan-in job reads of the jobs it waited for.
 *
 * @param result set once {@code state} is SUCCEEDED
 */
public record Dependency(
    long id,
    String queue,
    String type,
    JobState state,
    @Nullable byte[] result,
    @Nullable String resultContentType,
    @Nullable String lastError) {

  public Dependency {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(state, "state");
    result = result == null ? null : result.clone();
  }

  @Override
  @Nullable
  public byte[] result() {
    return result == null ? null : result.clone();
  }
}
