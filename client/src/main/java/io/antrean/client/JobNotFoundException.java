package io.antrean.client;

import io.grpc.Status;
import javax.annotation.Nullable;

/**
 * The job (or another resource the request named) does not exist ({@code NOT_FOUND}). Immutable and
 * thread-safe.
 */
public class JobNotFoundException extends AntreanException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param description the server's description; empty when it sent none
   * @param reason the {@code ErrorInfo} reason, or {@code null}
   * @param cause the gRPC exception this one translates, or {@code null}
   */
  public JobNotFoundException(
      String description, @Nullable String reason, @Nullable Throwable cause) {
    super(Status.Code.NOT_FOUND, description, reason, cause);
  }
}
