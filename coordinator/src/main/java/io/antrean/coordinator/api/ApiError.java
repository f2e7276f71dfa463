package io.antrean.coordinator.api;

import io.antrean.coordinator.core.CoordinatorStoppingException;
import io.antrean.coordinator.core.DependencyNotFoundException;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.JobFinishedException;
import io.antrean.coordinator.core.NotDeadLetteredException;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.store.IdempotencyConflictException;
import io.antrean.coordinator.store.JobNotFoundException;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.OverloadedException;
import io.antrean.coordinator.store.ScheduleExistsException;
import io.antrean.coordinator.store.ScheduleNotFoundException;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.UniqueKeyConflictException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one classification of the coordinator's errors: which {@link ErrorCategory} and which stable
 * reason (the {@code ErrorInfo} reason over gRPC, the {@code code} of an HTTP error body) each
 * domain exception is. The gRPC status table and the HTTP error answer translate this, and only
 * this, so the two transports always agree.
 *
 * @param reason stable and machine-readable, for example {@code LEASE_LOST}
 * @param violations the field problems of an {@link ErrorCategory#INVALID_ARGUMENT}, bounded by
 *     {@link BoundedViolations}; empty otherwise
 * @param limit the limit reached, for {@link ErrorCategory#RESOURCE_EXHAUSTED}; else null
 * @param retryAfter how long to wait, for {@link ErrorCategory#RESOURCE_EXHAUSTED}; else null
 * @param correlationId the id logged with the stack trace, for {@link ErrorCategory#INTERNAL}
 * @param metadata more machine-readable facts about the error (the {@code ErrorInfo} metadata over
 *     gRPC), for example the {@code existing_job_id} of a unique key clash; usually empty
 */
public record ApiError(
    ErrorCategory category,
    String reason,
    String message,
    List<FieldViolation> violations,
    @Nullable String limit,
    @Nullable Duration retryAfter,
    @Nullable String correlationId,
    Map<String, String> metadata) {
  private static final Logger log = LoggerFactory.getLogger(ApiError.class);

  public ApiError {
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    violations = List.copyOf(violations);
    metadata = Map.copyOf(metadata);
  }

  /** An error without metadata. */
  public ApiError(
      ErrorCategory category,
      String reason,
      String message,
      List<FieldViolation> violations,
      @Nullable String limit,
      @Nullable Duration retryAfter,
      @Nullable String correlationId) {
    this(category, reason, message, violations, limit, retryAfter, correlationId, Map.of());
  }

  /**
   * The classification of {@code t}, unwrapping {@link CompletionException} and {@link
   * ExecutionException}. A store outage is logged at WARN; anything unclassified at ERROR with a
   * fresh correlation id, and its message never reaches the caller.
   */
  public static ApiError of(Throwable t) {
    if ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      return of(t.getCause());
    }
    if (t instanceof ValidationException v) {
      return new ApiError(
          ErrorCategory.INVALID_ARGUMENT,
          "VALIDATION_FAILED",
          BoundedViolations.message(v),
          BoundedViolations.bounded(v),
          null,
          null,
          null);
    }
    if (t instanceof LeaseLostException) {
      return plain(ErrorCategory.FAILED_PRECONDITION, "LEASE_LOST", t);
    }
    if (t instanceof JobNotFoundException) {
      return plain(ErrorCategory.NOT_FOUND, "JOB_NOT_FOUND", t);
    }
    if (t instanceof DependencyNotFoundException e) {
      return new ApiError(
          ErrorCategory.NOT_FOUND,
          "DEPENDENCY_NOT_FOUND",
          e.getMessage(),
          List.of(),
          null,
          null,
          null,
          Map.of("field", e.field(), "job_id", Long.toString(e.jobId())));
    }
    if (t instanceof ScheduleNotFoundException) {
      return plain(ErrorCategory.NOT_FOUND, "SCHEDULE_NOT_FOUND", t);
    }
    if (t instanceof ScheduleExistsException) {
      return plain(ErrorCategory.ALREADY_EXISTS, "SCHEDULE_EXISTS", t);
    }
    if (t instanceof UniqueKeyConflictException e) {
      return new ApiError(
          ErrorCategory.ALREADY_EXISTS,
          "UNIQUE_KEY_ACTIVE",
          e.getMessage(),
          List.of(),
          null,
          null,
          null,
          Map.of(
              "existing_job_id",
              Long.toString(e.existingJobId()),
              "queue",
              e.queue(),
              "unique_key",
              e.uniqueKey()));
    }
    if (t instanceof IdempotencyConflictException) {
      return plain(ErrorCategory.ALREADY_EXISTS, "IDEMPOTENCY_KEY_CONFLICT", t);
    }
    if (t instanceof JobFinishedException) {
      return plain(ErrorCategory.FAILED_PRECONDITION, "JOB_FINISHED", t);
    }
    if (t instanceof NotDeadLetteredException) {
      return plain(ErrorCategory.FAILED_PRECONDITION, "NOT_DEAD_LETTERED", t);
    }
    if (t instanceof StoreUnavailableException e) {
      log.warn("store unavailable: {}", e.getMessage(), e);
      return new ApiError(
          ErrorCategory.UNAVAILABLE,
          "STORE_UNAVAILABLE",
          "store unavailable; retry later",
          List.of(),
          null,
          null,
          null);
    }
    if (t instanceof AccessDeniedException e) {
      return plain(
          e.unauthenticated() ? ErrorCategory.UNAUTHENTICATED : ErrorCategory.PERMISSION_DENIED,
          e.reason(),
          e);
    }
    if (t instanceof OverloadedException e) {
      return new ApiError(
          ErrorCategory.RESOURCE_EXHAUSTED,
          "OVERLOADED",
          e.getMessage(),
          List.of(),
          e.limit(),
          e.retryAfter(),
          null);
    }
    if (t instanceof CoordinatorStoppingException) {
      return plain(ErrorCategory.UNAVAILABLE, "COORDINATOR_STOPPING", t);
    }
    String correlationId = UUID.randomUUID().toString();
    log.error("internal error, correlation id {}", correlationId, t);
    return new ApiError(
        ErrorCategory.INTERNAL,
        "INTERNAL",
        "internal error (correlation id " + correlationId + ")",
        List.of(),
        null,
        null,
        correlationId);
  }

  private static ApiError plain(ErrorCategory category, String reason, Throwable t) {
    return new ApiError(
        category,
        reason,
        Objects.requireNonNullElse(t.getMessage(), reason),
        List.of(),
        null,
        null,
        null);
  }
}
