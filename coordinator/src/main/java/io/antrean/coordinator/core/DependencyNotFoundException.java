package io.antrean.coordinator.core;

/** A new job names a job to depend on that does not exist; nothing is stored. */
public final class DependencyNotFoundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String field;
  private final long jobId;

  /**
   * @param field the request field that names it, for example {@code jobs[2].depends_on}
   */
  public DependencyNotFoundException(String field, long jobId) {
    super(field + ": job " + jobId + " not found");
    this.field = field;
    this.jobId = jobId;
  }

  public String field() {
    return field;
  }

  public long jobId() {
    return jobId;
  }
}
