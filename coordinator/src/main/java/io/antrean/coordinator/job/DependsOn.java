package io.antrean.coordinator.job;

import java.util.List;
import java.util.Objects;

/**
 * The jobs a new job waits for, and what becomes of it if one of them does not succeed.
 *
 * @param jobIds distinct ids, ascending; empty for a job that waits for nothing
 */
public record DependsOn(List<Long> jobIds, DependencyFailure onFailure) {
  /** Waits for nothing. */
  public static final DependsOn NONE = new DependsOn(List.of(), DependencyFailure.CANCEL);

  public DependsOn {
    Objects.requireNonNull(onFailure, "onFailure");
    jobIds = jobIds.stream().distinct().sorted().toList();
  }

  /** True when the job waits for at least one job. */
  public boolean any() {
    return !jobIds.isEmpty();
  }
}
