package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.store.LeaseSpec;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Grants leases on jobs already picked: the job's row becomes RUNNING under a new fencing token and
 * the SHA-256 of a new random {@link LeaseId}, and its history entry is opened with the same
 * digest, in the statements that write them anyway (no second pass over the rows). The returned
 * jobs carry the lease id's text, which only the worker that took the lease ever sees.
 */
public final class LeaseGrants {
  private static final String LEASE_ONE =
      "UPDATE jobs SET state = 'RUNNING', attempts = attempts + 1,"
          + " lease_token = lease_token + 1, lease_worker_id = ?, lease_expires_at = ?,"
          + " lease_id_sha256 = ?, updated_at = ? WHERE id = ? AND state = 'PENDING' RETURNING "
          + JobRowReader.JOB_COLUMNS;

  private static final String OPEN_ATTEMPT =
      "INSERT INTO attempts (job_id, attempt, worker_id, fencing_token, leased_at, outcome,"
          + " lease_id_sha256) VALUES (?, ?, ?, ?, ?, 'RUNNING', ?)";

  private LeaseGrants() {}

  /**
   * Leases one job that the caller picked PENDING in this transaction, and opens its history entry.
   *
   * @throws IllegalStateException if the job is not PENDING any more (the caller's pick was wrong)
   */
  public static Job grant(JdbcSession session, LeaseSpec spec, long id, Instant now)
      throws SQLException {
    LeaseId leaseId = LeaseId.generate();
    byte[] digest = leaseId.sha256();
    PreparedStatement update = session.prepare(LEASE_ONE);
    update.setString(1, spec.workerId());
    session.dialect().setInstant(update, 2, spec.expiresAt());
    update.setBytes(3, digest);
    session.dialect().setInstant(update, 4, now);
    update.setLong(5, id);
    List<Job> jobs = JobRows.jobs(session, update);
    if (jobs.size() != 1) {
      throw new IllegalStateException("picked job " + id + " was not PENDING any more");
    }
    Job job = jobs.get(0);
    PreparedStatement attempt = session.prepare(OPEN_ATTEMPT);
    attempt.setLong(1, job.id());
    attempt.setInt(2, job.attempts());
    attempt.setString(3, job.lease().workerId());
    attempt.setLong(4, job.lease().fencingToken());
    session.dialect().setInstant(attempt, 5, now);
    attempt.setBytes(6, digest);
    attempt.executeUpdate();
    session.dialect().countMoved(session, job.queue(), JobState.PENDING, JobState.RUNNING, 1);
    return job.withLease(job.lease().withLeaseId(leaseId));
  }

  /**
   * New lease ids for a statement that leases up to {@code count} jobs at once and gives each
   * leased row one of their digests ({@link #digests}); {@link #withTexts} gives the leased jobs
   * their texts back.
   */
  public static List<LeaseId> newLeaseIds(int count) {
    List<LeaseId> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(LeaseId.generate());
    }
    return ids;
  }

  /** The digests of the lease ids, in order, as the statement binds them. */
  public static byte[][] digests(List<LeaseId> leaseIds) {
    byte[][] digests = new byte[leaseIds.size()][];
    for (int i = 0; i < digests.length; i++) {
      digests[i] = leaseIds.get(i).sha256();
    }
    return digests;
  }

  /**
   * The leased jobs as read back, each lease now carrying the text of the generated lease id whose
   * digest its row holds.
   *
   * @throws IllegalStateException if a row holds a digest none of them has
   */
  public static List<Job> withTexts(List<Job> leased, List<LeaseId> generated) {
    Map<LeaseId, LeaseId> byDigest = new HashMap<>();
    for (LeaseId id : generated) {
      byDigest.put(id, id); // equal by digest: a stored id finds the generated one
    }
    List<Job> withTexts = new ArrayList<>(leased.size());
    for (Job job : leased) {
      LeaseId text = byDigest.get(job.lease().leaseId());
      if (text == null) {
        throw new IllegalStateException("job " + job.id() + " holds a lease id not granted here");
      }
      withTexts.add(job.withLease(job.lease().withLeaseId(text)));
    }
    return withTexts;
  }
}
