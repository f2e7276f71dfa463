package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Which jobs a lease takes first, and whether a fencing token still holds a job. */
public final class Leases {
  /** Highest priority first, then the earliest run time, then the lowest id. */
  private static final Comparator<Job> GRANT_ORDER =
      Comparator.comparingInt(Job::priority)
          .reversed()
          .thenComparing(Job::runAt)
          .thenComparingLong(Job::id);

  private Leases() {}

  /**
   * The jobs just leased in the order they were picked in (an UPDATE's RETURNING hands rows back in
   * no particular order), as a new list.
   */
  public static List<Job> inGrantOrder(List<Job> leased) {
    List<Job> sorted = new ArrayList<>(leased);
    sorted.sort(GRANT_ORDER);
    return sorted;
  }

  /**
   * True while the job runs under the lease that issued this token to this worker: a token
   * presented under another worker id (or, with authentication, by another identity) does not hold
   * it.
   */
  public static boolean isHeldBy(Job job, long fencingToken, String workerId) {
    return isHeldWith(job, fencingToken) && job.lease().workerId().equals(workerId);
  }

  /** True while the job runs under the lease that issued this token. */
  public static boolean isHeldWith(Job job, long fencingToken) {
    return job.state() == JobState.RUNNING
        && job.lease() != null
        && job.lease().fencingToken() == fencingToken;
  }
}
