package io.antrean.coordinator.http;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.antrean.coordinator.api.CallerIdentity;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.http.ErrorBodies.ErrorBody;
import io.antrean.coordinator.metrics.RpcDurations;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.store.OverloadedException;
import io.grpc.Context;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatches every request to the route whose method and percent-decoded path match a template (a
 * GET route serves HEAD too), on the server's thread for that request: a path no route has is 404
 * {@code ENDPOINT_NOT_FOUND}, a path served under other methods is 405 with {@code Allow}. Every
 * error a handler throws becomes a JSON error through {@link HttpErrors}. Each call is timed into
 * {@link RpcDurations} as {@code "METHOD /template"} (unmatched paths as {@code "unmatched"}).
 * Routes are added before the server starts; dispatching is thread-safe.
 *
 * <p>It also counts calls in flight, so a shutdown can wait for them ({@link #drain}): once
 * draining, new calls are answered 503 {@code SHUTTING_DOWN}. Calls of the API ({@code /v1/...})
 * are admitted by {@link Admission} first, holding their declared body length: past its limits they
 * are answered 429 {@code OVERLOADED} with {@code Retry-After}, before the body is read. The
 * probes, {@code /metrics} and the dashboard's files are never refused.
 */
final class Router extends org.eclipse.jetty.server.Handler.Abstract {
  private static final Logger log = LoggerFactory.getLogger(Router.class);
  private static final Pattern PARAM = Pattern.compile("\\{[a-z_]+}");
  private static final String API_PREFIX = "/v1/";
  private static final String[] STATUS_LABELS = new String[600];
  private static final ErrorBody SHUTTING_DOWN =
      new ErrorBody(
          503, "SHUTTING_DOWN", "the coordinator is shutting down", List.of(), null, null);

  static {
    for (int i = 100; i < STATUS_LABELS.length; i++) {
      STATUS_LABELS[i] = Integer.toString(i);
    }
  }

  /** What a route does with a matched request. */
  @FunctionalInterface
  interface Handler {
    void handle(HttpCall call) throws IOException;
  }

  private record Route(String method, Pattern path, String label, Handler handler) {}

  private final List<Route> routes = new ArrayList<>();
  private final RpcDurations durations;
  private final int maxBodyBytes;
  private final Admission admission;
  private final HttpServerLimits limits;
  private final ScheduledExecutorService timer;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private int inFlight;

  @GuardedBy("lock")
  private boolean draining;

  @Nullable private final HttpGuard guard;

  /**
   * @param limits the request timeout for reading a body and the response timeout for writing
   * @param timer times body reads ({@link HttpCall})
   * @param guard what a matched call must pass before its handler runs ({@link HttpGuard}); null
   *     for none
   */
  Router(
      RpcDurations durations,
      int maxBodyBytes,
      Admission admission,
      HttpServerLimits limits,
      ScheduledExecutorService timer,
      @Nullable HttpGuard guard) {
    this.durations = durations;
    this.maxBodyBytes = maxBodyBytes;
    this.admission = admission;
    this.limits = limits;
    this.timer = timer;
    this.guard = guard;
  }

  /**
   * @param template a path whose {@code {name}} parts match one segment up to a '/' or ':'
   */
  Router add(String method, String template, Handler handler) {
    StringBuilder regex = new StringBuilder();
    Matcher m = PARAM.matcher(template);
    int at = 0;
    while (m.find()) {
      regex.append(Pattern.quote(template.substring(at, m.start()))).append("([^/:]+)");
      at = m.end();
    }
    regex.append(Pattern.quote(template.substring(at)));
    routes.add(
        new Route(method, Pattern.compile(regex.toString()), method + " " + template, handler));
    return this;
  }

  /**
   * Answers every later call 503 and waits until the calls in flight finished, at most {@code
   * timeout}.
   *
   * @return true when none is left
   */
  boolean drain(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      draining = true;
      while (inFlight > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return true;
    }
  }

  /**
   * Answers the request before returning (blocking the server's thread), then completes {@code
   * callback}: it succeeds once the answer is sent, and fails (aborting the connection) when the
   * answer could not be sent.
   */
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    long start = System.nanoTime();
    String label = "unmatched";
    HttpCall call = null;
    synchronized (lock) {
      if (draining) {
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        answer(newCall(request, response, List.of()), SHUTTING_DOWN, callback);
        return true;
      }
      inFlight++;
    }
    try {
      String path = Request.getPathInContext(request);
      String method = request.getMethod();
      Set<String> allowed = new LinkedHashSet<>();
      for (Route route : routes) {
        Matcher m = route.path().matcher(path);
        if (!m.matches()) {
          continue;
        }
        if (!serves(route, method)) {
          allowed.add(route.method());
          if (route.method().equals("GET")) {
            allowed.add("HEAD");
          }
          continue;
        }
        label = route.label();
        List<String> params = new ArrayList<>();
        for (int i = 1; i <= m.groupCount(); i++) {
          params.add(m.group(i));
        }
        call = newCall(request, response, params);
        Handler handler =
            guarded(
                route.label(),
                path.startsWith(API_PREFIX) ? admitted(route.handler()) : route.handler());
        run(handler, call, callback);
        return true;
      }
      call = newCall(request, response, List.of());
      run(
          c -> {
            throw allowed.isEmpty()
                ? HttpProblem.endpointNotFound()
                : HttpProblem.methodNotAllowed(String.join(", ", allowed));
          },
          call,
          callback);
      return true;
    } finally {
      int status = call == null ? 0 : call.status();
      durations.record(
          label, status == 0 ? "none" : STATUS_LABELS[status], System.nanoTime() - start);
      synchronized (lock) {
        if (--inFlight == 0) {
          lock.notifyAll();
        }
      }
    }
  }

  private HttpCall newCall(Request request, Response response, List<String> params) {
    return new HttpCall(request, response, params, maxBodyBytes, limits, timer);
  }

  private static void answer(HttpCall call, ErrorBody error, Callback callback) {
    try {
      call.respondError(error);
      callback.succeeded();
    } catch (IOException e) {
      callback.failed(e);
    }
  }

  /** A GET route also serves HEAD: the same status and headers, no body. */
  private static boolean serves(Route route, String method) {
    return route.method().equals(method) || (method.equals("HEAD") && route.method().equals("GET"));
  }

  private Handler admitted(Handler handler) {
    return call -> {
      try (Admission.Ticket ticket = admission.admit(Admission.Kind.UNARY)) {
        ticket.addBytes(call.bodyBytesToHold());
        handler.handle(call);
      }
    };
  }

  /** The handler behind the guard: admitted calls run as their caller's identity. */
  private Handler guarded(String label, Handler handler) {
    if (guard == null) {
      return handler;
    }
    return c -> {
      Identity identity = guard.admit(label, c);
      if (identity == null) {
        handler.handle(c);
        return;
      }
      Context context = CallerIdentity.contextOf(identity);
      Context previous = context.attach();
      try {
        handler.handle(c);
      } finally {
        context.detach(previous);
      }
    };
  }

  /**
   * Runs the handler and completes the callback: an exception becomes the JSON error (once nothing
   * was sent yet); an answer that could not be sent fails the callback, which aborts the
   * connection.
   */
  private static void run(Handler handler, HttpCall call, Callback callback) {
    try {
      try {
        handler.handle(call);
      } catch (RuntimeException e) {
        if (call.responded()) {
          log.error("HTTP handler failed after answering; closing the connection", e);
          callback.failed(e);
          return;
        }
        OverloadedException overloaded = overloaded(e);
        if (overloaded != null) {
          call.header("Retry-After", retryAfterSeconds(overloaded));
          call.closeAfterAnswer();
        }
        call.respondError(HttpErrors.of(e));
      }
      callback.succeeded();
    } catch (IOException e) {
      log.debug("HTTP answer not sent; aborting the connection", e);
      callback.failed(e);
    }
  }

  @Nullable
  private static OverloadedException overloaded(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OverloadedException o) {
        return o;
      }
    }
    return null;
  }

  /** Whole seconds, rounded up, at least 1: what {@code Retry-After} can say. */
  private static String retryAfterSeconds(OverloadedException e) {
    long millis = e.retryAfter().toMillis();
    return Long.toString(Math.max(1, (millis + 999) / 1000));
  }
}
