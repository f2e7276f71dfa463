package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.LeaseClaim;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Which jobs a lease takes first, and whether a fencing token or a lease claim holds a job. */
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
   * True while the job runs under the lease that issued this token and lease id to this worker: a
   * claim presented under another worker id (or, with authentication, by another identity), or with
   * a wrong or missing lease id, does not hold it. The lease id is compared in constant time.
   */
  public static boolean isHeldBy(Job job, LeaseClaim claim, String workerId) {
    return isHeldWith(job, claim.fencingToken())
        && job.lease().workerId().equals(workerId)
        && claim.matches(job.lease().leaseId());
  }

  /** True while the job runs under the lease that issued this token. */
  public static boolean isHeldWith(Job job, long fencingToken) {
    return job.state() == JobState.RUNNING
        && job.lease() != null
        && job.lease().fencingToken() == fencingToken;
  }
}
