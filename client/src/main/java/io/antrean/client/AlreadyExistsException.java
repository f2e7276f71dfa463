package io.antrean.client;

import io.grpc.Status;
import javax.annotation.Nullable;

/**
 * The request conflicts with what the coordinator already holds ({@code ALREADY_EXISTS}), for
 * example an idempotency key that is remembered with a different payload. Immutable and
 * thread-safe.
 */
public class AlreadyExistsException extends AntreanException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param description the server's description; empty when it sent none
   * @param reason the {@code ErrorInfo} reason, or {@code null}
   * @param cause the gRPC exception this one translates, or {@code null}
   */
  public AlreadyExistsException(
      String description, @Nullable String reason, @Nullable Throwable cause) {
    super(Status.Code.ALREADY_EXISTS, description, reason, cause);
  }
}
