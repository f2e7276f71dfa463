package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.LeaseClaim;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Which jobs a lease takes first, and whether a claim names a job's current lease id. */
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
   * True while the job has a lease whose lease id the claim presents, compared in constant time.
   * The token and worker id are {@link io.antrean.coordinator.job.JobLifecycle}'s to judge; a claim
   * must pass both.
   */
  public static boolean hasLeaseId(Job job, LeaseClaim claim) {
    return job.lease() != null && claim.matches(job.lease().leaseId());
  }
}
