package io.antrean.coordinator.http;

import java.time.Duration;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A request the HTTP layer turns away before (or instead of) calling the core: a body that is not
 * the expected JSON, too large or too slow a body, an unknown path, or a method the path does not
 * serve. The message is written to the client, so it never carries anything internal.
 */
final class HttpProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;
  private final transient List<ErrorBodies.Detail> details;
  @Nullable private final String allow;

  private HttpProblem(
      int status,
      String code,
      String message,
      List<ErrorBodies.Detail> details,
      @Nullable String allow) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.details = List.copyOf(details);
    this.allow = allow;
  }

  static HttpProblem invalidJson(String message, @Nullable String unknownField) {
    List<ErrorBodies.Detail> details =
        unknownField == null
            ? List.of()
            : List.of(new ErrorBodies.Detail(unknownField, "unknown field"));
    return new HttpProblem(400, "INVALID_JSON", message, details, null);
  }

  static HttpProblem tooLarge(int maxBytes) {
    return new HttpProblem(
        413,
        "PAYLOAD_TOO_LARGE",
        "the request body is larger than " + maxBytes + " bytes",
        List.of(),
        null);
  }

  static HttpProblem requestTimeout(Duration limit) {
    return new HttpProblem(
        408,
        "REQUEST_TIMEOUT",
        "the request was not sent in full within " + limit.toMillis() + " ms",
        List.of(),
        null);
  }

  static HttpProblem endpointNotFound() {
    return new HttpProblem(404, "ENDPOINT_NOT_FOUND", "no such endpoint", List.of(), null);
  }

  /**
   * @param allow the methods the path serves, for the {@code Allow} header
   */
  static HttpProblem methodNotAllowed(String allow) {
    return new HttpProblem(
        405, "METHOD_NOT_ALLOWED", "this endpoint serves only " + allow, List.of(), allow);
  }

  /** A request refused before authentication: a foreign Host or Origin. */
  static HttpProblem forbidden(String code, String message) {
    return new HttpProblem(403, code, message, List.of(), null);
  }

  static HttpProblem unsupportedMediaType() {
    return new HttpProblem(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        "a request that changes state must be sent as Content-Type: application/json",
        List.of(),
        null);
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }

  List<ErrorBodies.Detail> details() {
    return details;
  }

  @Nullable
  String allow() {
    return allow;
  }
}
