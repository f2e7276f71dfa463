package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.LeaseId;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives every job a lease just granted its own random {@link LeaseId}: the job's row and the
 * lease's history entry keep its SHA-256 digest, the returned jobs carry its text for the worker.
 * Runs in the lease's transaction, after the lease statement and the history entries it opened.
 */
public final class LeaseIdWrites {
  /** Parameters: digest, job id. */
  public static final String ON_JOB = "UPDATE jobs SET lease_id_sha256 = ? WHERE id = ?";

  /** Parameters: digest, job id, fencing token. */
  public static final String ON_ATTEMPT =
      "UPDATE attempts SET lease_id_sha256 = ? WHERE job_id = ? AND fencing_token = ?";

  private LeaseIdWrites() {}

  /**
   * Stores a new lease id for each job, in two batches.
   *
   * @param onJob a statement of {@link #ON_JOB}
   * @param onAttempt a statement of {@link #ON_ATTEMPT}
   * @param leased RUNNING jobs, each with its new lease
   * @return the jobs in the same order, each lease carrying its new lease id
   */
  public static List<Job> assign(
      PreparedStatement onJob, PreparedStatement onAttempt, List<Job> leased) throws SQLException {
    if (leased.isEmpty()) {
      return leased;
    }
    List<Job> withIds = new ArrayList<>(leased.size());
    for (Job job : leased) {
      LeaseId leaseId = LeaseId.generate();
      byte[] digest = leaseId.sha256();
      onJob.setBytes(1, digest);
      onJob.setLong(2, job.id());
      onJob.addBatch();
      onAttempt.setBytes(1, digest);
      onAttempt.setLong(2, job.id());
      onAttempt.setLong(3, job.lease().fencingToken());
      onAttempt.addBatch();
      withIds.add(job.withLease(job.lease().withLeaseId(leaseId)));
    }
    onJob.executeBatch();
    onAttempt.executeBatch();
    return withIds;
  }
}
