package io.antrean.coordinator.http;

import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.http.ErrorBodies.ErrorBody;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.security.RequestQueues;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.annotation.Nullable;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One HTTP request and its answer: path parameters, strict query parameters, a size-limited JSON
 * body, and JSON or error responses. The body must arrive within the request timeout, counted from
 * the request's first byte (past it: 408 {@code REQUEST_TIMEOUT} and the connection is closed), and
 * the answer must be taken within the response timeout (past it the connection is aborted). Not
 * thread-safe; one per request.
 */
final class HttpCall {
  static final String JSON = "application/json; charset=utf-8";
  private static final long MAX_DISCARD_BYTES = 16L << 20;
  // What an API answer opened as a page may do: nothing.
  private static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'";

  private final Request request;
  private final Response response;
  private final List<String> pathParams;
  private final int maxBodyBytes;
  private final HttpServerLimits limits;
  private final ScheduledExecutorService timer;
  private int status;
  private boolean closeAfterAnswer;
  private boolean bodyRead;
  @Nullable private Identity identity;

  /**
   * @param timer fails a body read that outlasts the request timeout
   */
  HttpCall(
      Request request,
      Response response,
      List<String> pathParams,
      int maxBodyBytes,
      HttpServerLimits limits,
      ScheduledExecutorService timer) {
    this.request = request;
    this.response = response;
    this.pathParams = List.copyOf(pathParams);
    this.maxBodyBytes = maxBodyBytes;
    this.limits = limits;
    this.timer = timer;
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
    return request.getMethod();
  }

  /** Records who is calling, so the queues a JSON body names are checked against it. */
  void authorize(Identity identity) {
    this.identity = identity;
  }

  /** The value of a request cookie, or null. */
  @Nullable
  String cookie(String name) {
    for (String header : request.getHeaders().getValuesList(HttpHeader.COOKIE)) {
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
    return request.getHeaders().get(name);
  }

  QueryParams query(Set<String> allowed) {
    return QueryParams.parse(request.getHttpURI().getQuery(), allowed);
  }

  /**
   * Reads the body, at most the size limit, and merges it as JSON into {@code builder}.
   *
   * @throws HttpProblem 413 when too large, 400 when not the message's JSON, 408 when the body did
   *     not arrive within the request timeout
   */
  <B extends Message.Builder> B json(B builder) throws IOException {
    byte[] body = readBody();
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

  /** The body, at most the size limit; the read fails when the request timeout passes. */
  private byte[] readBody() throws IOException {
    long elapsed = System.nanoTime() - request.getBeginNanoTime();
    long left = Math.max(0, limits.requestTimeout().toNanos() - elapsed);
    ScheduledFuture<?> deadline =
        timer.schedule(
            () -> request.fail(new TimeoutException("request timeout")),
            left,
            TimeUnit.NANOSECONDS);
    try (InputStream in = Content.Source.asInputStream(request)) {
      if (declaredLength() > maxBodyBytes) {
        throw tooLarge(in);
      }
      byte[] body = in.readNBytes(maxBodyBytes + 1);
      if (body.length > maxBodyBytes) {
        throw tooLarge(in);
      }
      bodyRead = true;
      return body;
    } catch (IOException e) {
      if (timedOut(e)) {
        closeAfterAnswer = true;
        throw HttpProblem.requestTimeout(limits.requestTimeout());
      }
      throw e;
    } finally {
      deadline.cancel(false);
    }
  }

  private static boolean timedOut(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads and drops the rest of an oversized body, up to a bound, so the client (still sending) can
   * read the 413 instead of seeing the connection reset; beyond the bound the connection is closed.
   */
  private HttpProblem tooLarge(InputStream in) throws IOException {
    byte[] sink = new byte[8192];
    long left = MAX_DISCARD_BYTES;
    int n = 0;
    while (left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) >= 0) {
      left -= n;
    }
    if (n >= 0) {
      closeAfterAnswer = true;
    } else {
      bodyRead = true;
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
      return request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING) ? maxBodyBytes : 0;
    }
    return Math.min(declared, maxBodyBytes + 1L);
  }

  /** Sets a response header; call before answering. */
  void header(String name, String value) {
    response.getHeaders().put(name, value);
  }

  /** Asks for the connection to be closed after the answer (its request body was not read). */
  void closeAfterAnswer() {
    closeAfterAnswer = true;
  }

  /** The declared {@code Content-Length} (the server refuses one that is not a number), or -1. */
  private long declaredLength() {
    return request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
  }

  /** Answers with a message as JSON. */
  void respond(int code, MessageOrBuilder message) throws IOException {
    send(code, JSON, ProtoJson.print(message));
  }

  /** Answers with a message as JSON and a {@code Location} header. */
  void created(String location, MessageOrBuilder message) throws IOException {
    response.getHeaders().put(HttpHeader.LOCATION, location);
    respond(201, message);
  }

  void respondError(ErrorBody error) throws IOException {
    if (error.allow() != null) {
      response.getHeaders().put(HttpHeader.ALLOW, error.allow());
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

  /**
   * Answers with {@code headers} (for example caching headers of a static file) and the body. A
   * HEAD request gets what GET would answer, without the body.
   *
   * @throws IOException when the client does not take the answer within the response timeout (the
   *     connection is then aborted) or the connection failed
   */
  void send(int code, String contentType, Map<String, String> headers, byte[] body)
      throws IOException {
    dropUnreadBody();
    if (closeAfterAnswer) {
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }
    securityHeaders(response, contentType);
    headers.forEach(response.getHeaders()::put);
    status = code;
    response.setStatus(code);
    if (request.getMethod().equals("HEAD")) {
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
      write(response, ByteBuffer.allocate(0), limits.responseTimeout());
    } else {
      write(response, ByteBuffer.wrap(body), limits.responseTimeout());
    }
  }

  /**
   * Reads and drops a request body the route did not read (a refused call, or a route that takes no
   * body), so the connection can carry the client's next request. Jetty closes a connection whose
   * request body is still arriving when the answer ends, without a {@code Connection: close} the
   * client could see, and a client that reuses it gets no answer. A body of unknown length, or one
   * declared larger than the size limit, is not waited for: the answer closes the connection.
   */
  private void dropUnreadBody() {
    if (bodyRead || closeAfterAnswer) {
      return;
    }
    long declared = declaredLength();
    boolean chunked = request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    if (declared == 0 || (declared < 0 && !chunked)) {
      return;
    }
    if (declared < 0 || declared > maxBodyBytes) {
      closeAfterAnswer = true;
      return;
    }
    try {
      readBody();
    } catch (IOException | HttpProblem e) {
      closeAfterAnswer = true;
    }
  }

  /** The content type and the headers that keep a browser from misreading or framing an answer. */
  static void securityHeaders(Response response, String contentType) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put("X-Frame-Options", "DENY");
    response.getHeaders().put("Content-Security-Policy", API_POLICY);
  }

  /** Writes the whole answer and waits until it is sent, at most {@code timeout}. */
  static void write(Response response, ByteBuffer body, Duration timeout) throws IOException {
    Callback.Completable written = new Callback.Completable();
    response.write(true, body, written);
    try {
      written.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new IOException("the client did not take the answer within " + timeout, e);
    } catch (ExecutionException e) {
      throw new IOException("the answer could not be sent", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while sending the answer", e);
    }
  }
}
