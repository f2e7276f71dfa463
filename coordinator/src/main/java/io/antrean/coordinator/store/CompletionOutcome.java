package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Job;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * How one {@link Completion} of a batch ended.
 *
 * @param job the job after the change when {@link Status#COMPLETED}, otherwise null
 */
public record CompletionOutcome(long jobId, Status status, @Nullable Job job) {

  /** What {@link JobStore#complete} would have answered for this completion alone. */
  public enum Status {
    /** The job is SUCCEEDED. */
    COMPLETED,
    /** The token was stale: only the job's history changed ({@link LeaseLostException}). */
    LEASE_LOST,
    /** No job has this id ({@link JobNotFoundException}). */
    NOT_FOUND
  }

  public CompletionOutcome {
    Objects.requireNonNull(status, "status");
    if ((status == Status.COMPLETED) != (job != null)) {
      throw new IllegalArgumentException("a job goes with COMPLETED and only with it");
    }
  }

  public static CompletionOutcome completed(Job job) {
    return new CompletionOutcome(job.id(), Status.COMPLETED, job);
  }

  public static CompletionOutcome leaseLost(long jobId) {
    return new CompletionOutcome(jobId, Status.LEASE_LOST, null);
  }

  public static CompletionOutcome notFound(long jobId) {
    return new CompletionOutcome(jobId, Status.NOT_FOUND, null);
  }
}
