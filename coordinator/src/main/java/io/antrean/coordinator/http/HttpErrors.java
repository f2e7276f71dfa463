package io.antrean.coordinator.http;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import io.antrean.coordinator.grpc.StatusMapping;
import io.antrean.coordinator.http.ErrorBodies.Detail;
import io.antrean.coordinator.http.ErrorBodies.ErrorBody;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.List;

/**
 * From any exception to an HTTP error. Domain exceptions go through the one status table ({@link
 * StatusMapping}, which also logs unexpected ones at ERROR with a correlation id); this class only
 * translates its answer to HTTP:
 *
 * <table>
 *   <caption>status codes</caption>
 *   <tr><th>gRPC status</th><th>HTTP</th><th>code</th></tr>
 *   <tr><td>INVALID_ARGUMENT</td><td>422</td><td>VALIDATION_FAILED, with the field violations</td></tr>
 *   <tr><td>UNAUTHENTICATED</td><td>401</td><td>CREDENTIALS_MISSING, CREDENTIALS_INVALID</td></tr>
 *   <tr><td>PERMISSION_DENIED</td><td>403</td><td>ROLE_NOT_ALLOWED, QUEUE_NOT_ALLOWED</td></tr>
 *   <tr><td>NOT_FOUND</td><td>404</td><td>the reason, e.g. JOB_NOT_FOUND</td></tr>
 *   <tr><td>ALREADY_EXISTS</td><td>409</td><td>IDEMPOTENCY_KEY_CONFLICT</td></tr>
 *   <tr><td>FAILED_PRECONDITION</td><td>409</td><td>LEASE_LOST, JOB_FINISHED, NOT_DEAD_LETTERED</td></tr>
 *   <tr><td>UNAVAILABLE</td><td>503</td><td>STORE_UNAVAILABLE</td></tr>
 *   <tr><td>RESOURCE_EXHAUSTED</td><td>429</td><td>OVERLOADED (the router adds Retry-After)</td></tr>
 *   <tr><td>anything else</td><td>500</td><td>INTERNAL, with a correlation id only</td></tr>
 * </table>
 *
 * <p>{@link HttpProblem}s (400, 404, 405, 413) carry their own answer.
 */
final class HttpErrors {
  private HttpErrors() {}

  static ErrorBody of(Throwable t) {
    if (t instanceof HttpProblem p) {
      return new ErrorBody(p.status(), p.code(), p.getMessage(), p.details(), null, p.allow());
    }
    com.google.rpc.Status status = StatusProto.fromThrowable(StatusMapping.toStatus(t));
    ErrorInfo info = ErrorInfo.getDefaultInstance();
    List<Detail> details = new ArrayList<>();
    for (Any any : status.getDetailsList()) {
      try {
        if (any.is(ErrorInfo.class)) {
          info = any.unpack(ErrorInfo.class);
        } else if (any.is(BadRequest.class)) {
          for (BadRequest.FieldViolation v :
              any.unpack(BadRequest.class).getFieldViolationsList()) {
            details.add(new Detail(v.getField(), v.getDescription()));
          }
        }
      } catch (InvalidProtocolBufferException e) {
        // A detail we built ourselves always unpacks; skip it if it ever does not.
      }
    }
    io.grpc.Status.Code code = io.grpc.Status.fromCodeValue(status.getCode()).getCode();
    String reason = info.getReason().isEmpty() ? code.name() : info.getReason();
    return switch (code) {
      case INVALID_ARGUMENT ->
          new ErrorBody(422, "VALIDATION_FAILED", status.getMessage(), details, null, null);
      case UNAUTHENTICATED -> plain(401, reason, status.getMessage());
      case PERMISSION_DENIED -> plain(403, reason, status.getMessage());
      case NOT_FOUND -> plain(404, reason, status.getMessage());
      case ALREADY_EXISTS, FAILED_PRECONDITION -> plain(409, reason, status.getMessage());
      case UNAVAILABLE -> plain(503, reason, status.getMessage());
      case RESOURCE_EXHAUSTED -> plain(429, reason, status.getMessage());
      default -> internal(info.getMetadataOrDefault("correlation_id", ""));
    };
  }

  private static ErrorBody plain(int status, String reason, String message) {
    return new ErrorBody(status, reason, message, List.of(), null, null);
  }

  private static ErrorBody internal(String correlationId) {
    return new ErrorBody(
        500,
        "INTERNAL",
        "internal error; quote the correlation id when reporting it",
        List.of(),
        correlationId,
        null);
  }
}
