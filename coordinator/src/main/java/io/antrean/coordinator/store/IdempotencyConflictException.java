package io.antrean.coordinator.store;

/** An idempotency key still remembered in a queue was used again with a different job. */
public final class IdempotencyConflictException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public IdempotencyConflictException(String queue, String key, long existingJobId) {
    super(
        "idempotency key '"
            + key
            + "' in queue '"
            + queue
            + "' belongs to job "
            + existingJobId
            + " with a different type or payload");
  }
}
