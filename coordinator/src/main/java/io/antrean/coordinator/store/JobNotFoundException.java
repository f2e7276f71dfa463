package io.antrean.coordinator.store;

/** No job has the given id (it never existed, or retention deleted it). */
public final class JobNotFoundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JobNotFoundException(long jobId) {
    super("job " + jobId + " not found");
  }
}
