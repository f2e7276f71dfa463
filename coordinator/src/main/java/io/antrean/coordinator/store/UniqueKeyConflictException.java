package io.antrean.coordinator.store;

/**
 * A job was not stored because an active (PENDING or RUNNING) job of its queue holds its unique
 * key, and the job asked to be refused in that case.
 */
public final class UniqueKeyConflictException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String queue;
  private final String uniqueKey;
  private final long existingJobId;

  public UniqueKeyConflictException(String queue, String uniqueKey, long existingJobId) {
    super(
        "unique key '"
            + uniqueKey
            + "' is held by active job "
            + existingJobId
            + " in queue "
            + queue);
    this.queue = queue;
    this.uniqueKey = uniqueKey;
    this.existingJobId = existingJobId;
  }

  public String queue() {
    return queue;
  }

  public String uniqueKey() {
    return uniqueKey;
  }

  /** The active job that holds the key. */
  public long existingJobId() {
    return existingJobId;
  }
}
