package io.antrean.coordinator.core;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.store.Dependency;
import io.antrean.coordinator.store.JobStore;
import java.util.List;
import java.util.Map;

/** What the API reads about job dependencies, straight from the store. Thread-safe. */
public final class DependencyReads {
  private final JobStore store;

  DependencyReads(JobStore store) {
    this.store = store;
  }

  /** The jobs a job depends on, as they stand; see {@link JobStore#dependencies}. */
  public List<Dependency> of(long jobId) {
    return store.dependencies(jobId);
  }

  /** What each of the jobs depends on, for those that depend on any. */
  public Map<Long, DependsOn> dependsOn(List<Long> jobIds) {
    return store.dependsOn(jobIds);
  }
}
