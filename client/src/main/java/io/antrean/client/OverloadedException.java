package io.antrean.client;

import io.grpc.Status;
import java.time.Duration;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The coordinator refused the call because it holds as much as one of its limits allows ({@code
 * RESOURCE_EXHAUSTED} with reason {@code OVERLOADED}). It refuses before doing any of the call's
 * work, so nothing was stored and the same call may simply be made again, after {@link
 * #retryAfter}. {@link GrpcAntreanClient} already retries such calls a few times (see {@link
 * GrpcAntreanClient.Builder#overloadRetries}); this exception means those retries were refused too.
 * Immutable and thread-safe.
 */
public final class OverloadedException extends AntreanException {
  private static final long serialVersionUID = 1L;

  /** The {@code ErrorInfo} reason of an overload refusal. */
  public static final String REASON = "OVERLOADED";

  @Nullable private final Duration retryAfter;
  @Nullable private final String limit;

  /**
   * Creates the exception.
   *
   * @param description the server's description
   * @param retryAfter the server's {@code RetryInfo} delay, or {@code null} when it sent none
   * @param limit the limit reached ({@code ErrorInfo} metadata {@code limit}), or {@code null}
   * @param cause the gRPC exception this one translates, or {@code null}
   */
  public OverloadedException(
      String description,
      @Nullable Duration retryAfter,
      @Nullable String limit,
      @Nullable Throwable cause) {
    super(Status.Code.RESOURCE_EXHAUSTED, description, REASON, cause);
    this.retryAfter = retryAfter;
    this.limit = limit;
  }

  /** How long the coordinator asked callers to wait before trying again, when it said. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** The limit the coordinator reached, for example {@code in_flight_bytes}, when it said. */
  public Optional<String> limit() {
    return Optional.ofNullable(limit);
  }

  /** Always {@code true}: nothing was done, and a later attempt may be taken. */
  @Override
  public boolean isRetryable() {
    return true;
  }
}
