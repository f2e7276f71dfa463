package io.antrean.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.annotation.Nullable;

/**
 * The one table that turns a failed gRPC call into an {@link AntreanException}. Every RPC of {@link
 * GrpcAntreanClient} (queue control included) and {@link GrpcDeadLetters} goes through {@link
 * #call}, which uses {@link #translate}. Stateless and thread-safe.
 */
final class StatusTranslation {

  /** What a status code becomes; codes missing from the table become the base class. */
  @FunctionalInterface
  private interface Factory {
    AntreanException create(Failure failure);
  }

  /** A failed call taken apart: code, description, details and the original exception. */
  private record Failure(
      Status.Code code,
      String description,
      @Nullable String reason,
      List<FieldViolation> violations,
      StatusRuntimeException cause) {}

  private static final Map<Status.Code, Factory> TABLE = buildTable();

  private StatusTranslation() {}

  private static Map<Status.Code, Factory> buildTable() {
    Map<Status.Code, Factory> table = new EnumMap<>(Status.Code.class);
    table.put(
        Status.Code.INVALID_ARGUMENT,
        f -> new InvalidArgumentException(f.description(), f.reason(), f.violations(), f.cause()));
    table.put(
        Status.Code.NOT_FOUND,
        f -> new JobNotFoundException(f.description(), f.reason(), f.cause()));
    table.put(
        Status.Code.ALREADY_EXISTS,
        f -> new AlreadyExistsException(f.description(), f.reason(), f.cause()));
    table.put(
        Status.Code.FAILED_PRECONDITION,
        f -> new FailedPreconditionException(f.description(), f.reason(), f.cause()));
    table.put(Status.Code.RESOURCE_EXHAUSTED, StatusTranslation::resourceExhausted);
    table.put(Status.Code.UNAVAILABLE, StatusTranslation::unavailable);
    table.put(Status.Code.DEADLINE_EXCEEDED, StatusTranslation::unavailable);
    return table;
  }

  /** The coordinator's overload refusal (reason OVERLOADED) is retryable; any other is not. */
  private static AntreanException resourceExhausted(Failure f) {
    if (!OverloadedException.REASON.equals(f.reason())) {
      return new AntreanException(f.code(), f.description(), f.reason(), f.cause());
    }
    com.google.rpc.Status details = StatusProto.fromThrowable(f.cause());
    Duration retryAfter = null;
    String limit = null;
    for (Any any : details == null ? List.<Any>of() : details.getDetailsList()) {
      if (any.is(RetryInfo.class)) {
        RetryInfo retry = unpack(any, RetryInfo.class);
        if (retry != null && retry.hasRetryDelay()) {
          com.google.protobuf.Duration d = retry.getRetryDelay();
          if (d.getSeconds() >= 0 && d.getNanos() >= 0) {
            retryAfter = Duration.ofSeconds(d.getSeconds(), d.getNanos());
          }
        }
      } else if (any.is(ErrorInfo.class)) {
        ErrorInfo info = unpack(any, ErrorInfo.class);
        if (info != null && info.containsMetadata("limit")) {
          limit = info.getMetadataOrThrow("limit");
        }
      }
    }
    return new OverloadedException(f.description(), retryAfter, limit, f.cause());
  }

  private static AntreanException unavailable(Failure f) {
    return new UnavailableException(f.code(), f.description(), f.reason(), f.cause());
  }

  /**
   * Makes one blocking call and translates its failure, if any.
   *
   * @param rpc the call, typically a deadlined stub's method
   * @return what the call returned
   * @throws AntreanException (or a subclass) if the call ended with a status other than OK
   */
  static <T> T call(Supplier<T> rpc) {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      throw translate(e);
    }
  }

  /**
   * Translates a failed call. Details that cannot be parsed are ignored rather than hiding the
   * failure itself.
   *
   * @param e the exception a stub threw
   * @return the exception to throw in its place; its cause is {@code e}
   */
  static AntreanException translate(StatusRuntimeException e) {
    Status status = e.getStatus();
    String description = status.getDescription() == null ? "" : status.getDescription();
    com.google.rpc.Status details = StatusProto.fromThrowable(e);
    Failure failure =
        new Failure(
            status.getCode(),
            description,
            details == null ? null : reasonOf(details),
            details == null ? List.of() : violationsOf(details),
            e);
    Factory factory = TABLE.get(status.getCode());
    if (factory != null) {
      return factory.create(failure);
    }
    return new AntreanException(failure.code(), description, failure.reason(), e);
  }

  /**
   * A failure a stub threw or gave its observer as the {@code StatusRuntimeException} a blocking
   * stub would throw, with its trailers; anything that is not a gRPC failure is {@code UNKNOWN}.
   */
  static StatusRuntimeException asStatusException(Throwable failure) {
    if (failure instanceof StatusRuntimeException e) {
      return e;
    }
    return Status.fromThrowable(failure).asRuntimeException(Status.trailersFromThrowable(failure));
  }

  @Nullable
  private static String reasonOf(com.google.rpc.Status details) {
    for (Any any : details.getDetailsList()) {
      if (any.is(ErrorInfo.class)) {
        ErrorInfo info = unpack(any, ErrorInfo.class);
        if (info != null && !info.getReason().isEmpty()) {
          return info.getReason();
        }
      }
    }
    return null;
  }

  private static List<FieldViolation> violationsOf(com.google.rpc.Status details) {
    List<FieldViolation> violations = new ArrayList<>();
    for (Any any : details.getDetailsList()) {
      if (any.is(BadRequest.class)) {
        BadRequest badRequest = unpack(any, BadRequest.class);
        if (badRequest != null) {
          badRequest
              .getFieldViolationsList()
              .forEach(v -> violations.add(new FieldViolation(v.getField(), v.getDescription())));
        }
      }
    }
    return violations;
  }

  @Nullable
  private static <T extends com.google.protobuf.Message> T unpack(Any any, Class<T> type) {
    try {
      return any.unpack(type);
    } catch (InvalidProtocolBufferException malformed) {
      return null;
    }
  }
}
