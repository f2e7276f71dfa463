package io.antrean.worker;

/**
 * Thrown by a {@link JobHandler} to fail the attempt as {@link FailureKind#PERMANENT permanent}:
 * the job goes straight to the dead-letter queue, whatever attempts it has left. Use it for input
 * that can never succeed (a malformed payload, an unknown id). The default {@link ErrorClassifier}
 * honours it also when it is the cause of another exception.
 *
 * <p>Unchecked, so it can leave lambdas; immutable.
 */
public class PermanentException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * A permanent failure.
   *
   * @param message what is wrong with the job; stored in the dead-letter queue
   */
  public PermanentException(String message) {
    super(message);
  }

  /**
   * A permanent failure caused by {@code cause}.
   *
   * @param message what is wrong with the job; stored in the dead-letter queue
   * @param cause the underlying error, or {@code null}
   */
  public PermanentException(String message, Throwable cause) {
    super(message, cause);
  }
}
