package io.antrean.coordinator.grpc;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.antrean.coordinator.api.ApiError;
import io.antrean.coordinator.api.ErrorCategory;
import io.antrean.coordinator.core.FieldViolation;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The one table from the coordinator's error classification ({@link ApiError}) to gRPC statuses
 * with google.rpc details: an {@code ErrorInfo} with the reason always, a {@code BadRequest} for
 * invalid input, a {@code RetryInfo} when the caller should wait. Every handler sends its errors
 * through {@link #toStatus}.
 */
public final class StatusMapping {
  /** The ErrorInfo domain of every Antrean error. */
  public static final String DOMAIN = "antrean.io";

  private StatusMapping() {}

  public static StatusRuntimeException toStatus(Throwable t) {
    if ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      return toStatus(t.getCause());
    }
    if (t instanceof StatusRuntimeException sre) {
      return sre;
    }
    return status(ApiError.of(t));
  }

  private static StatusRuntimeException status(ApiError e) {
    ErrorInfo.Builder info = ErrorInfo.newBuilder().setReason(e.reason()).setDomain(DOMAIN);
    if (e.limit() != null) {
      info.putMetadata("limit", e.limit());
    }
    if (e.correlationId() != null) {
      info.putMetadata("correlation_id", e.correlationId());
    }
    info.putAllMetadata(e.metadata());
    com.google.rpc.Status.Builder status =
        com.google.rpc.Status.newBuilder().setCode(code(e).getNumber()).setMessage(e.message());
    if (e.category() == ErrorCategory.INVALID_ARGUMENT) {
      status.addDetails(Any.pack(badRequest(e)));
    } else {
      status.addDetails(Any.pack(info.build()));
    }
    if (e.retryAfter() != null) {
      long millis = Math.max(1, e.retryAfter().toMillis());
      status.addDetails(
          Any.pack(
              RetryInfo.newBuilder()
                  .setRetryDelay(
                      com.google.protobuf.Duration.newBuilder()
                          .setSeconds(millis / 1000)
                          .setNanos((int) (millis % 1000) * 1_000_000))
                  .build()));
    }
    return StatusProto.toStatusRuntimeException(status.build());
  }

  private static Code code(ApiError e) {
    return switch (e.category()) {
      case INVALID_ARGUMENT -> Code.INVALID_ARGUMENT;
      case UNAUTHENTICATED -> Code.UNAUTHENTICATED;
      case PERMISSION_DENIED -> Code.PERMISSION_DENIED;
      case NOT_FOUND -> Code.NOT_FOUND;
      case ALREADY_EXISTS -> Code.ALREADY_EXISTS;
      case FAILED_PRECONDITION -> Code.FAILED_PRECONDITION;
      case RESOURCE_EXHAUSTED -> Code.RESOURCE_EXHAUSTED;
      case UNAVAILABLE -> Code.UNAVAILABLE;
      case INTERNAL -> Code.INTERNAL;
    };
  }

  private static BadRequest badRequest(ApiError e) {
    BadRequest.Builder bad = BadRequest.newBuilder();
    for (FieldViolation v : e.violations()) {
      bad.addFieldViolations(
          BadRequest.FieldViolation.newBuilder()
              .setField(v.field())
              .setDescription(v.description()));
    }
    return bad.build();
  }
}
