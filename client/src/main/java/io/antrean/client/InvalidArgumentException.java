package io.antrean.client;

import io.grpc.Status;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The coordinator rejected the request as malformed ({@code INVALID_ARGUMENT}). Repeating the call
 * unchanged fails the same way.
 *
 * <p>{@link #fieldViolations()} lists what was wrong, one entry per field, parsed from the status's
 * {@code google.rpc.BadRequest} detail; it is empty when the server sent no such detail. Immutable
 * and thread-safe.
 */
public class InvalidArgumentException extends AntreanException {
  private static final long serialVersionUID = 1L;

  private final List<FieldViolation> fieldViolations;

  /**
   * Creates the exception.
   *
   * @param description the server's description; empty when it sent none
   * @param reason the {@code ErrorInfo} reason, or {@code null}
   * @param fieldViolations the violations from the {@code BadRequest} detail, copied
   * @param cause the gRPC exception this one translates, or {@code null}
   */
  public InvalidArgumentException(
      String description,
      @Nullable String reason,
      List<FieldViolation> fieldViolations,
      @Nullable Throwable cause) {
    super(Status.Code.INVALID_ARGUMENT, description, reason, cause);
    this.fieldViolations = List.copyOf(fieldViolations);
  }

  /** The rejected fields in the order the server listed them; never null, possibly empty. */
  public List<FieldViolation> fieldViolations() {
    return fieldViolations;
  }
}
