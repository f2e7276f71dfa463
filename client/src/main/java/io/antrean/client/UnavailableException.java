package io.antrean.client;

import io.grpc.Status;
import javax.annotation.Nullable;

/**
 * The coordinator could not be reached or did not answer in time ({@code UNAVAILABLE} or {@code
 * DEADLINE_EXCEEDED}). The call may or may not have taken effect: a timed-out Enqueue may have
 * stored its job. The call is {@linkplain #isRetryable() retryable}; retry Enqueue with an
 * idempotency key so that a repeat cannot store the job twice. Immutable and thread-safe.
 */
public class UnavailableException extends AntreanException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param statusCode {@code UNAVAILABLE} or {@code DEADLINE_EXCEEDED}
   * @param description the server's or the channel's description; empty when there was none
   * @param reason the {@code ErrorInfo} reason, or {@code null}
   * @param cause the gRPC exception this one translates, or {@code null}
   * @throws IllegalArgumentException for any other status code
   */
  public UnavailableException(
      Status.Code statusCode,
      String description,
      @Nullable String reason,
      @Nullable Throwable cause) {
    super(statusCode, description, reason, cause);
    if (statusCode != Status.Code.UNAVAILABLE && statusCode != Status.Code.DEADLINE_EXCEEDED) {
      throw new IllegalArgumentException(
          "UnavailableException needs UNAVAILABLE or DEADLINE_EXCEEDED, not " + statusCode);
    }
  }

  /** Whether the call timed out (DEADLINE_EXCEEDED) rather than finding no server (UNAVAILABLE). */
  public boolean isDeadlineExceeded() {
    return statusCode() == Status.Code.DEADLINE_EXCEEDED;
  }

  /** Always {@code true}: the coordinator may answer a later attempt. */
  @Override
  public boolean isRetryable() {
    return true;
  }
}
