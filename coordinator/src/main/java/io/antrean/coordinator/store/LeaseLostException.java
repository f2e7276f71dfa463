package io.antrean.coordinator.store;

/**
 * The fencing token presented is not the job's current lease (it expired and the job was taken
 * back, or the job finished). The caller must not retry.
 */
public final class LeaseLostException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final long jobId;

  public LeaseLostException(long jobId, long fencingToken) {
    super("lease lost: job " + jobId + " is no longer held with fencing token " + fencingToken);
    this.jobId = jobId;
  }

  public long jobId() {
    return jobId;
  }
}
