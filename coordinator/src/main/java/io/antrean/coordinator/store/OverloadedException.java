package io.antrean.coordinator.store;

import java.time.Duration;
import java.util.Objects;

/**
 * The coordinator holds as much as one of its limits allows (requests in flight, queued writes,
 * waiting calls) and refuses more for now; the caller may retry after {@link #retryAfter}. Nothing
 * of the refused request was stored.
 */
public final class OverloadedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String limit;
  private final Duration retryAfter;

  /**
   * @param limit the limit reached, in snake case (for example {@code in_flight_bytes}); it is the
   *     {@code limit} metadata of the error a client gets
   * @param retryAfter how long the caller should wait before trying again
   */
  public OverloadedException(String limit, String message, Duration retryAfter) {
    super(message);
    this.limit = Objects.requireNonNull(limit, "limit");
    this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
  }

  /** The limit reached, for example {@code in_flight_bytes}. */
  public String limit() {
    return limit;
  }

  /** How long the caller should wait before trying again. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
