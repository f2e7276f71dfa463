package io.antrean.coordinator.http;

import io.antrean.coordinator.http.ErrorBodies.Detail;
import io.antrean.coordinator.http.ErrorBodies.ErrorBody;
import java.nio.ByteBuffer;
import java.util.List;
import javax.annotation.Nullable;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers, in the JSON error shape of {@link ErrorBodies}, every request the server refuses before
 * a route runs: a malformed request line, a target that is not a valid URI path (a bad
 * percent-escape, bad UTF-8, an encoded '/' or an empty segment: 400 {@code INVALID_URI} naming the
 * {@code path}), too large headers (431 {@code HEADERS_TOO_LARGE}), an unknown HTTP version (400),
 * and anything that failed outside the router (500 {@code INTERNAL}). The answer never carries
 * HTML, a Java class name or a stack trace. Thread-safe (stateless); it never blocks, because the
 * server may call it on a network thread.
 */
final class ProtocolErrorHandler implements Request.Handler {

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus() >= 400 ? response.getStatus() : 500;
    Object cause = request.getAttribute(ErrorHandler.ERROR_EXCEPTION);
    ErrorBody error = bodyFor(status, uriOf(request), cause instanceof Throwable t ? t : null);
    response.setStatus(error.status());
    HttpCall.securityHeaders(response, HttpCall.JSON);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(true, ByteBuffer.wrap(error.json()), callback);
    return true;
  }

  @Nullable
  private static HttpURI uriOf(Request request) {
    try {
      return request.getHttpURI();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * The answer for a refusal with {@code status}.
   *
   * @param uri the request's URI when the server could parse it
   * @param cause what the server reported, or null
   */
  static ErrorBody bodyFor(int status, @Nullable HttpURI uri, @Nullable Throwable cause) {
    String reason = reasonOf(cause);
    return switch (status) {
      case 400 ->
          uriProblem(uri, cause)
              ? invalidUri(uri, reason)
              : plain(
                  400,
                  "BAD_REQUEST",
                  "the request is not valid HTTP/1.1" + (reason == null ? "" : ": " + reason));
      case 408 -> plain(408, "REQUEST_TIMEOUT", "the request was not sent in full in time");
      case 413 -> plain(413, "PAYLOAD_TOO_LARGE", "the request is too large");
      case 414 -> plain(414, "URI_TOO_LONG", "the request target is longer than allowed");
      case 431 ->
          plain(431, "HEADERS_TOO_LARGE", "the request line and headers are larger than allowed");
      // A malformed request line, so 400: no client error may be answered 5xx.
      case 505 -> plain(400, "HTTP_VERSION_NOT_SUPPORTED", "only HTTP/1.0 and HTTP/1.1 are served");
      case 500 -> plain(500, "INTERNAL", "internal error; the server log has the details");
      default -> plain(status, "HTTP_" + status, "the request was refused");
    };
  }

  /**
   * The server's own reason, written for clients (for example "Ambiguous URI empty segment"); none
   * for anything else, so no exception text reaches the client.
   */
  @Nullable
  private static String reasonOf(@Nullable Throwable cause) {
    if (!(cause instanceof HttpException e) || e.getReason() == null) {
      return null;
    }
    String reason = e.getReason().strip();
    boolean safe = !reason.isEmpty() && reason.length() < 200 && !reason.contains("Exception");
    return safe ? reason : null;
  }

  /**
   * True when the request target is at fault: the parsed URI carries a violation, or the failure
   * arose while the server parsed the URI (a bad percent-escape fails there before any URI exists).
   */
  private static boolean uriProblem(@Nullable HttpURI uri, @Nullable Throwable cause) {
    if (uri != null && uri.hasViolations()) {
      return true;
    }
    for (Throwable t = cause; t != null; t = t.getCause()) {
      for (StackTraceElement frame : t.getStackTrace()) {
        if (frame.getClassName().startsWith(HttpURI.class.getName())) {
          return true;
        }
      }
    }
    return false;
  }

  private static ErrorBody invalidUri(@Nullable HttpURI uri, @Nullable String reason) {
    String path = uri == null || !uri.hasViolations() ? null : uri.getPath();
    String problem =
        reason == null || reason.equals("Bad Request")
            ? "a '%' must be followed by two hex digits, and a path must be valid UTF-8"
            : reason;
    String message =
        (path == null
                ? "the request target is not a valid URI path"
                : "the request path '" + path + "' is not a valid URI path")
            + ": "
            + problem;
    return new ErrorBody(
        400, "INVALID_URI", message, List.of(new Detail("path", problem)), null, null);
  }

  private static ErrorBody plain(int status, String code, String message) {
    return new ErrorBody(status, code, message, List.of(), null, null);
  }
}
