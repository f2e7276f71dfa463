package io.antrean.coordinator.job;

import java.time.Duration;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A failed attempt as the worker reported it.
 *
 * @param retryAfter a delay the worker asks for (a 429's Retry-After); wins over the backoff
 */
public record Failure(
    ErrorKind kind,
    @Nullable String errorType,
    @Nullable String message,
    @Nullable String stackTrace,
    @Nullable Duration retryAfter) {
  public Failure {
    Objects.requireNonNull(kind, "kind");
  }
}
