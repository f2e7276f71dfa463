package io.antrean.coordinator.grpc;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.antrean.coordinator.core.CoordinatorStoppingException;
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
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one table from domain exceptions to gRPC statuses with google.rpc details. Every handler
 * sends its errors through {@link #toStatus}; anything not in the table is INTERNAL with a
 * correlation id, and its stack trace stays in the server log.
 */
public final class StatusMapping {
  /** The ErrorInfo domain of every Antrean error. */
  public static final String DOMAIN = "antrean.io";

  private static final Logger log = LoggerFactory.getLogger(StatusMapping.class);

  private StatusMapping() {}

  public static StatusRuntimeException toStatus(Throwable t) {
    if ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      return toStatus(t.getCause());
    }
    if (t instanceof StatusRuntimeException sre) {
      return sre;
    }
    if (t instanceof ValidationException v) {
      return status(
          Code.INVALID_ARGUMENT,
          BoundedViolations.message(v),
          Any.pack(BoundedViolations.badRequest(v)));
    }
    if (t instanceof LeaseLostException e) {
      return status(Code.FAILED_PRECONDITION, e.getMessage(), info("LEASE_LOST"));
    }
    if (t instanceof JobNotFoundException e) {
      return status(Code.NOT_FOUND, e.getMessage(), info("JOB_NOT_FOUND"));
    }
    if (t instanceof UniqueKeyConflictException e) {
      return status(
          Code.ALREADY_EXISTS,
          e.getMessage(),
          Any.pack(
              ErrorInfo.newBuilder()
                  .setReason("UNIQUE_KEY_ACTIVE")
                  .setDomain(DOMAIN)
                  .putMetadata("existing_job_id", Long.toString(e.existingJobId()))
                  .putMetadata("queue", e.queue())
                  .putMetadata("unique_key", e.uniqueKey())
                  .build()));
    }
    if (t instanceof ScheduleNotFoundException e) {
      return status(Code.NOT_FOUND, e.getMessage(), info("SCHEDULE_NOT_FOUND"));
    }
    if (t instanceof ScheduleExistsException e) {
      return status(Code.ALREADY_EXISTS, e.getMessage(), info("SCHEDULE_EXISTS"));
    }
    if (t instanceof IdempotencyConflictException e) {
      return status(Code.ALREADY_EXISTS, e.getMessage(), info("IDEMPOTENCY_KEY_CONFLICT"));
    }
    if (t instanceof JobFinishedException e) {
      return status(Code.FAILED_PRECONDITION, e.getMessage(), info("JOB_FINISHED"));
    }
    if (t instanceof NotDeadLetteredException e) {
      return status(Code.FAILED_PRECONDITION, e.getMessage(), info("NOT_DEAD_LETTERED"));
    }
    if (t instanceof StoreUnavailableException e) {
      log.warn("store unavailable: {}", e.getMessage(), e);
      return status(Code.UNAVAILABLE, "store unavailable; retry later", info("STORE_UNAVAILABLE"));
    }
    if (t instanceof AccessDeniedException e) {
      return status(
          e.unauthenticated() ? Code.UNAUTHENTICATED : Code.PERMISSION_DENIED,
          e.getMessage(),
          info(e.reason()));
    }
    if (t instanceof OverloadedException e) {
      return overloaded(e);
    }
    if (t instanceof CoordinatorStoppingException e) {
      return status(Code.UNAVAILABLE, e.getMessage(), info("COORDINATOR_STOPPING"));
    }
    String correlationId = UUID.randomUUID().toString();
    log.error("internal error, correlation id {}", correlationId, t);
    return status(
        Code.INTERNAL,
        "internal error (correlation id " + correlationId + ")",
        Any.pack(
            ErrorInfo.newBuilder()
                .setReason("INTERNAL")
                .setDomain(DOMAIN)
                .putMetadata("correlation_id", correlationId)
                .build()));
  }

  /**
   * RESOURCE_EXHAUSTED with {@code ErrorInfo} reason {@code OVERLOADED} (metadata {@code limit}:
   * which one) and a {@code RetryInfo} delay.
   */
  private static StatusRuntimeException overloaded(OverloadedException e) {
    long millis = Math.max(1, e.retryAfter().toMillis());
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.RESOURCE_EXHAUSTED.getNumber())
            .setMessage(e.getMessage())
            .addDetails(
                Any.pack(
                    ErrorInfo.newBuilder()
                        .setReason("OVERLOADED")
                        .setDomain(DOMAIN)
                        .putMetadata("limit", e.limit())
                        .build()))
            .addDetails(
                Any.pack(
                    RetryInfo.newBuilder()
                        .setRetryDelay(
                            com.google.protobuf.Duration.newBuilder()
                                .setSeconds(millis / 1000)
                                .setNanos((int) (millis % 1000) * 1_000_000))
                        .build()))
            .build());
  }

  private static Any info(String reason) {
    return Any.pack(ErrorInfo.newBuilder().setReason(reason).setDomain(DOMAIN).build());
  }

  private static StatusRuntimeException status(Code code, String message, Any detail) {
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(code.getNumber())
            .setMessage(message)
            .addDetails(detail)
            .build());
  }
}
