package io.antrean.worker;

import io.antrean.proto.WorkerCallLimits;

/**
 * The attempt's failure when a {@link JobHandler} returns a result longer than a coordinator stores
 * ({@link WorkerCallLimits#MAX_RESULT_BYTES}, 1 MiB, the same limit as a payload's): the worker
 * fails the job as {@link FailureKind#PERMANENT permanent} with this error instead of completing
 * it, so the job goes to the dead-letter queue with a reason an operator can read rather than
 * running again with the same result. Store a long result elsewhere (an object store, a table) and
 * return where it is.
 *
 * <p>The worker creates it; a handler has no reason to throw it. An {@link ErrorClassifier} sees it
 * like any other failure. Immutable.
 */
public final class ResultTooLargeException extends PermanentException {
  private static final long serialVersionUID = 1L;

  private final int resultSize;

  /**
   * @param resultSize the length of the result the handler returned
   */
  public ResultTooLargeException(int resultSize) {
    super(
        "the handler returned a result of "
            + resultSize
            + " bytes, past the "
            + WorkerCallLimits.MAX_RESULT_BYTES
            + " bytes a coordinator stores; store it elsewhere and return where it is");
    this.resultSize = resultSize;
  }

  /** The length of the result the handler returned, in bytes. */
  public int resultSize() {
    return resultSize;
  }
}
