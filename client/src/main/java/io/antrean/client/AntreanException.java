package io.antrean.client;

import io.grpc.Status;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * A call to the coordinator failed: the base of every exception an {@link AntreanClient} throws.
 *
 * <p>It carries the gRPC status code, the server's description and, when the server attached a
 * {@code google.rpc.ErrorInfo} detail, its machine-readable reason (for example {@code
 * LEASE_LOST}). Codes without a more specific subclass ({@code PERMISSION_DENIED}, {@code
 * UNAUTHENTICATED}, {@code RESOURCE_EXHAUSTED}, {@code INTERNAL}, ...) arrive as this class; branch
 * on {@link #statusCode()}.
 *
 * <p>Instances are immutable and safe to share between threads. The original {@code
 * StatusRuntimeException} is kept as the {@linkplain #getCause() cause}.
 */
public class AntreanException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Status.Code statusCode;
  private final String description;
  @Nullable private final String reason;

  /**
   * Creates an exception for a failed call.
   *
   * @param statusCode the gRPC status code the call ended with; not {@code OK}
   * @param description the server's description; empty when it sent none
   * @param reason the {@code ErrorInfo} reason, or {@code null} when the server attached none
   * @param cause the gRPC exception this one translates, or {@code null}
   */
  public AntreanException(
      Status.Code statusCode,
      String description,
      @Nullable String reason,
      @Nullable Throwable cause) {
    super(formatMessage(statusCode, description), cause);
    this.statusCode = Objects.requireNonNull(statusCode, "statusCode");
    this.description = Objects.requireNonNull(description, "description");
    this.reason = reason == null || reason.isEmpty() ? null : reason;
  }

  /**
   * The exception an {@link AntreanClient} throws for a failed call: for code that calls the
   * protocol's stubs itself, with the failure a stub threw or gave its observer. Anything that is
   * not a gRPC failure comes out as {@code UNKNOWN}.
   */
  public static AntreanException of(Throwable failure) {
    return StatusTranslation.translate(StatusTranslation.asStatusException(failure));
  }

  private static String formatMessage(Status.Code code, String description) {
    return description == null || description.isEmpty() ? code.name() : description;
  }

  /** The gRPC status code the call ended with; never {@code OK}. */
  public Status.Code statusCode() {
    return statusCode;
  }

  /** The server's description of the failure, exactly as sent; empty when it sent none. */
  public String description() {
    return description;
  }

  /** The {@code google.rpc.ErrorInfo} reason, when the server attached one. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  /**
   * Whether the same call may succeed if repeated later (the coordinator was unreachable, busy or
   * too slow). Callers that retry must make the call idempotent, for example with an idempotency
   * key on Enqueue.
   */
  public boolean isRetryable() {
    return false;
  }
}
