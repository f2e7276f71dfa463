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

  /** How the failure reads as a job's last error: "type: message", or whichever is known. */
  public String summary() {
    if (errorType != null && message != null) {
      return errorType + ": " + message;
    }
    if (errorType != null || message != null) {
      return errorType != null ? errorType : message;
    }
    return kind == ErrorKind.PERMANENT ? "permanent failure" : "retryable failure";
  }
}
