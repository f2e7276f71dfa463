package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Job;
import java.util.List;
import javax.annotation.Nullable;

/**
 * One page of jobs.
 *
 * @param nextBeforeId the position of the next page; null on the last page
 */
public record JobPage(List<Job> jobs, @Nullable Long nextBeforeId) {
  public JobPage {
    jobs = List.copyOf(jobs);
  }
}
