package io.antrean.coordinator.http;

import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.sun.net.httpserver.HttpExchange;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.http.ErrorBodies.ErrorBody;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.security.RequestQueues;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * One HTTP request and its answer: path parameters, strict query parameters, a size-limited JSON
 * body, and JSON or error responses. Not thread-safe; one per request.
 */
final class HttpCall {
  static final String JSON = "application/json; charset=utf-8";
  private static final long MAX_DISCARD_BYTES = 16L << 20;
  // What an API answer opened as a page may do: nothing.
  private static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'";

  private final HttpExchange exchange;
  private final List<String> pathParams;
  private final int maxBodyBytes;
  private int status;
  private boolean closeAfterAnswer;
  @Nullable private Identity identity;

  HttpCall(HttpExchange exchange, List<String> pathParams, int maxBodyBytes) {
    this.exchange = exchange;
    this.pathParams = List.copyOf(pathParams);
    this.maxBodyBytes = maxBodyBytes;
  }

  /** The status sent, or 0 before the answer. */
  int status() {
    return status;
  }

  /**
   * The first path parameter as a job id.
   *
   * @throws ValidationException (field {@code id}) when it is not a positive integer
   */
  long idParam() {
    try {
      long id = Long.parseLong(pathParams.get(0));
      if (id > 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ValidationException(List.of(new FieldViolation("id", "must be a positive integer")));
  }

  /** The first path parameter, as matched (one segment, percent-decoded). */
  String pathParam() {
    return pathParams.get(0);
  }

  String method() {
    return exchange.getRequestMethod();
  }

  /** Records who is calling, so the queues a JSON body names are checked against it. */
  void authorize(Identity identity) {
    this.identity = identity;
  }

  /** The value of a request cookie, or null. */
  @Nullable
  String cookie(String name) {
    for (String header : exchange.getRequestHeaders().getOrDefault("Cookie", List.of())) {
      for (String pair : header.split(";")) {
        int eq = pair.indexOf('=');
        if (eq > 0 && pair.substring(0, eq).strip().equals(name)) {
          return pair.substring(eq + 1).strip();
        }
      }
    }
    return null;
  }

  /** The first value of a request header, or null. */
  @Nullable
  String requestHeader(String name) {
    return exchange.getRequestHeaders().getFirst(name);
  }

  QueryParams query(Set<String> allowed) {
    return QueryParams.parse(exchange.getRequestURI().getRawQuery(), allowed);
  }

  /**
   * Reads the body, at most the size limit, and merges it as JSON into {@code builder}.
   *
   * @throws HttpProblem 413 when too large, 400 when not the message's JSON
   */
  <B extends Message.Builder> B json(B builder) throws IOException {
    InputStream in = exchange.getRequestBody();
    if (declaredLength() > maxBodyBytes) {
      throw tooLarge(in);
    }
    byte[] body = in.readNBytes(maxBodyBytes + 1);
    if (body.length > maxBodyBytes) {
      throw tooLarge(in);
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException e) {
      throw HttpProblem.invalidJson("the request body is not UTF-8", null);
    }
    ProtoJson.merge(text, builder);
    if (identity != null) {
      for (String queue : RequestQueues.of(builder.build())) {
        AccessPolicy.checkQueue(identity, queue);
      }
    }
    return builder;
  }

  /**
   * Reads and drops the rest of an oversized body, up to a bound, so the client (still sending) can
   * read the 413 instead of seeing the connection reset; beyond the bound the connection is closed.
   */
  private HttpProblem tooLarge(InputStream in) throws IOException {
    // read(), not skip(): the JDK's body stream skips past the body into the raw connection.
    byte[] sink = new byte[8192];
    long left = MAX_DISCARD_BYTES;
    int n = 0;
    while (left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) >= 0) {
      left -= n;
    }
    if (n >= 0) {
      closeAfterAnswer = true;
    }
    return HttpProblem.tooLarge(maxBodyBytes);
  }

  /**
   * The body bytes this call may hold while it is served: its declared length, or the size limit
   * for a body of unknown length (chunked), at most the size limit plus one.
   */
  long bodyBytesToHold() {
    long declared = declaredLength();
    if (declared < 0) {
      return exchange.getRequestHeaders().containsKey("Transfer-Encoding") ? maxBodyBytes : 0;
    }
    return Math.min(declared, maxBodyBytes + 1L);
  }

  /** Sets a response header; call before answering. */
  void header(String name, String value) {
    exchange.getResponseHeaders().set(name, value);
  }

  /** Asks for the connection to be closed after the answer (its request body was not read). */
  void closeAfterAnswer() {
    closeAfterAnswer = true;
  }

  private long declaredLength() {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    try {
      return length == null ? -1 : Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Answers with a message as JSON. */
  void respond(int code, MessageOrBuilder message) throws IOException {
    send(code, JSON, ProtoJson.print(message));
  }

  /** Answers with a message as JSON and a {@code Location} header. */
  void created(String location, MessageOrBuilder message) throws IOException {
    exchange.getResponseHeaders().set("Location", location);
    respond(201, message);
  }

  void respondError(ErrorBody error) throws IOException {
    if (error.allow() != null) {
      exchange.getResponseHeaders().set("Allow", error.allow());
    }
    if (closeAfterAnswer) {
      exchange.getResponseHeaders().set("Connection", "close");
    }
    send(error.status(), JSON, error.json());
  }

  /** True once the status line was sent; later problems can only close the connection. */
  boolean responded() {
    return status != 0;
  }

  void send(int code, String contentType, byte[] body) throws IOException {
    send(code, contentType, Map.of("Cache-Control", "no-store"), body);
  }

  /** Answers with {@code headers} (for example caching headers of a static file) and the body. */
  void send(int code, String contentType, Map<String, String> headers, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
    exchange.getResponseHeaders().set("Content-Security-Policy", API_POLICY);
    headers.forEach(exchange.getResponseHeaders()::set);
    status = code;
    if (exchange.getRequestMethod().equals("HEAD")) {
      // What GET would answer, without the body; the JDK then sends no Content-Length of its own.
      exchange.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
      exchange.sendResponseHeaders(code, -1);
      return;
    }
    exchange.sendResponseHeaders(code, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
