package io.antrean.coordinator.http;

import io.antrean.coordinator.api.ApiError;
import io.antrean.coordinator.http.ErrorBodies.Detail;
import io.antrean.coordinator.http.ErrorBodies.ErrorBody;
import java.util.List;

/**
 * From any exception to an HTTP error. Domain exceptions go through the one classification ({@link
 * ApiError#of}, which also logs unexpected ones at ERROR with a correlation id); this class only
 * translates its category to an HTTP status:
 *
 * <table>
 *   <caption>status codes</caption>
 *   <tr><th>category</th><th>HTTP</th><th>code</th></tr>
 *   <tr><td>INVALID_ARGUMENT</td><td>422</td><td>VALIDATION_FAILED, with the field violations</td></tr>
 *   <tr><td>UNAUTHENTICATED</td><td>401</td><td>CREDENTIALS_MISSING, CREDENTIALS_INVALID</td></tr>
 *   <tr><td>PERMISSION_DENIED</td><td>403</td><td>ROLE_NOT_ALLOWED, QUEUE_NOT_ALLOWED</td></tr>
 *   <tr><td>NOT_FOUND</td><td>404</td><td>the reason, e.g. JOB_NOT_FOUND</td></tr>
 *   <tr><td>ALREADY_EXISTS</td><td>409</td><td>IDEMPOTENCY_KEY_CONFLICT</td></tr>
 *   <tr><td>FAILED_PRECONDITION</td><td>409</td><td>LEASE_LOST, JOB_FINISHED, NOT_DEAD_LETTERED</td></tr>
 *   <tr><td>UNAVAILABLE</td><td>503</td><td>STORE_UNAVAILABLE, COORDINATOR_STOPPING</td></tr>
 *   <tr><td>RESOURCE_EXHAUSTED</td><td>429</td><td>OVERLOADED (the router adds Retry-After)</td></tr>
 *   <tr><td>INTERNAL</td><td>500</td><td>INTERNAL, with a correlation id only</td></tr>
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
    ApiError e = ApiError.of(t);
    return switch (e.category()) {
      case INVALID_ARGUMENT ->
          new ErrorBody(
              422,
              e.reason(),
              e.message(),
              e.violations().stream().map(v -> new Detail(v.field(), v.description())).toList(),
              null,
              null);
      case UNAUTHENTICATED -> plain(401, e);
      case PERMISSION_DENIED -> plain(403, e);
      case NOT_FOUND -> plain(404, e);
      case ALREADY_EXISTS, FAILED_PRECONDITION -> plain(409, e);
      case UNAVAILABLE -> plain(503, e);
      case RESOURCE_EXHAUSTED -> plain(429, e);
      case INTERNAL -> internal(e.correlationId());
    };
  }

  private static ErrorBody plain(int status, ApiError e) {
    return new ErrorBody(status, e.reason(), e.message(), List.of(), null, null);
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
