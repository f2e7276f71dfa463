package io.antrean.coordinator.http;

import io.antrean.coordinator.api.AdminServiceCalls;
import io.antrean.coordinator.api.JobServiceCalls;
import io.antrean.coordinator.api.ScheduleServiceCalls;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.metrics.CoordinatorMetrics;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.Sessions;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import javax.annotation.Nullable;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's HTTP server: the JSON API ({@link JobRoutes}, {@link DeadLetterRoutes}, {@link
 * ScheduleRoutes}...), {@code /metrics}, {@code /healthz} and {@code /readyz} ({@link OpsRoutes}),
 * on an embedded Jetty server with the connection limit and timeouts of {@link HttpServerLimits}.
 * What Jetty refuses before a route runs (a malformed request line or URI, too large headers) is
 * answered as JSON by {@link ProtocolErrorHandler}.
 *
 * <p>Jetty reads request lines and headers without holding a thread; a route runs on a pool thread
 * and blocks it while it reads a body, so a client that stalls half-way through its body holds that
 * thread until the request timeout. The pool therefore has a thread for every connection the server
 * may hold open plus spares: a probe never waits behind stalled or slow API calls, and API work is
 * bounded by admission control instead of by a small pool. Thread-safe.
 */
public final class HttpApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpApiServer.class);

  /**
   * Threads beyond one per connection: Jetty's acceptor and selector, and a connection's next
   * request while its last ends.
   */
  private static final int SPARE_THREADS = 16;

  private static final int EXTRA_BODY_BYTES = 64 * 1024;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration DRAIN = Duration.ofSeconds(1);
  private static final Duration SESSION_LIFETIME = Duration.ofHours(12);

  private final Server server;
  private final ServerConnector connector;
  private final Router router;
  private final ScheduledExecutorService timer;
  private final ReadinessProbe readiness;

  private HttpApiServer(
      Server server,
      ServerConnector connector,
      Router router,
      ScheduledExecutorService timer,
      ReadinessProbe readiness) {
    this.server = server;
    this.connector = connector;
    this.router = router;
    this.timer = timer;
    this.readiness = readiness;
  }

  /**
   * Binds and starts serving.
   *
   * @param maxPayloadBytes the core's payload limit; a request body may be its base64 size plus 64
   *     KiB, and a larger one is answered 413
   * @param storeRead a cheap store check for {@code /readyz}; it throws when the store cannot
   *     answer or knows that its writes fail
   * @param admission counts the API's calls and body bytes in flight; past its limits a call is
   *     answered 429 with {@code Retry-After}
   * @throws IOException when the address cannot be bound
   */
  public static HttpApiServer start(
      HttpEndpoint endpoint,
      JobServiceCalls jobs,
      AdminServiceCalls admin,
      ScheduleServiceCalls schedules,
      CoordinatorMetrics metrics,
      Runnable storeRead,
      int maxPayloadBytes,
      Admission admission)
      throws IOException {
    return start(
        endpoint,
        jobs,
        admin,
        schedules,
        metrics,
        storeRead,
        maxPayloadBytes,
        admission,
        SecurityConfig.open(),
        Clock.systemUTC());
  }

  /**
   * Binds and starts serving, protected as {@code security} says ({@link HttpGuard}): HTTPS when it
   * has a TLS context, identities when it has an authenticator, and the {@code Host} and {@code
   * Origin} names it allows.
   *
   * @param clock for the dashboard's sign-in sessions
   */
  public static HttpApiServer start(
      HttpEndpoint endpoint,
      JobServiceCalls jobs,
      AdminServiceCalls admin,
      ScheduleServiceCalls schedules,
      CoordinatorMetrics metrics,
      Runnable storeRead,
      int maxPayloadBytes,
      Admission admission,
      SecurityConfig security,
      Clock clock)
      throws IOException {
    int maxBodyBytes =
        (int) Math.min(Integer.MAX_VALUE - 1, maxPayloadBytes * 4L / 3 + 4 + EXTRA_BODY_BYTES);
    HttpServerLimits limits = endpoint.limits();
    ReadinessProbe readiness = new ReadinessProbe(storeRead, READY_TIMEOUT);
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "antrean-http-timer");
              t.setDaemon(true);
              return t;
            });
    HttpGuard guard =
        new HttpGuard(security, new Sessions(SESSION_LIFETIME), endpoint.host(), clock);
    Router router =
        new Router(metrics.rpcDurations(), maxBodyBytes, admission, limits, timer, guard);
    new SessionRoutes(guard, clock).addTo(router);
    new JobRoutes(jobs).addTo(router);
    new DeadLetterRoutes(admin).addTo(router);
    new QueueRoutes(admin).addTo(router);
    new ScheduleRoutes(schedules).addTo(router);
    new OperatorRoutes(admin).addTo(router);
    new OpsRoutes(metrics, readiness, security.warning()).addTo(router);
    new DashboardAssets().addTo(router);

    QueuedThreadPool threads = new QueuedThreadPool(limits.maxConnections() + SPARE_THREADS, 4);
    threads.setName("antrean-http");
    threads.setDaemon(true);
    threads.setStopTimeout(2_000);
    Server server = new Server(threads);
    ServerConnector connector = connector(server, security.httpTls());
    connector.setHost(endpoint.host());
    connector.setPort(endpoint.port());
    connector.setIdleTimeout(limits.idleTimeout().toMillis());
    server.addConnector(connector);
    server.addBean(new NetworkConnectionLimit(limits.maxConnections(), connector));
    server.setErrorHandler(new ProtocolErrorHandler());
    server.setHandler(router);
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly(server);
      timer.shutdownNow();
      readiness.close();
      throw e instanceof IOException io
          ? io
          : new IOException(
              "cannot serve HTTP on " + endpoint.host() + ":" + endpoint.port() + ": " + e, e);
    }
    HttpApiServer started = new HttpApiServer(server, connector, router, timer, readiness);
    log.info(
        "{} API, /metrics, /healthz and /readyz listening on {}:{} ({})",
        security.httpTls() == null ? "HTTP" : "HTTPS",
        endpoint.host(),
        started.port(),
        limits);
    log.info("dashboard at {}", dashboardUrl(endpoint.host(), started.port()));
    return started;
  }

  /** Plain HTTP/1.1, or HTTP/1.1 over TLS from {@code tls}; the server names no version. */
  private static ServerConnector connector(Server server, @Nullable SSLContext tls) {
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setSendXPoweredBy(false);
    HttpConnectionFactory http = new HttpConnectionFactory(config);
    if (tls == null) {
      return new ServerConnector(server, 1, 1, http);
    }
    // The context's key manager re-reads the certificate files, so a renewed one is served.
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setSslContext(tls);
    return new ServerConnector(
        server, 1, 1, new SslConnectionFactory(ssl, HttpVersion.HTTP_1_1.asString()), http);
  }

  /** The dashboard's address for a person to open: a wildcard bind is shown as loopback. */
  static String dashboardUrl(String host, int port) {
    String shown =
        host.equals("0.0.0.0") || host.equals("::") || host.isEmpty() ? "localhost" : host;
    if (shown.contains(":") && !shown.startsWith("[")) {
      shown = "[" + shown + "]";
    }
    return "http://" + shown + ":" + port + "/";
  }

  /** The bound port. */
  public int port() {
    return connector.getLocalPort();
  }

  /**
   * Gives calls in flight up to a second (later calls are answered 503), then closes the socket and
   * the connections and stops the threads.
   */
  @Override
  public void close() {
    try {
      if (!router.drain(DRAIN)) {
        log.warn("HTTP calls still running after {}; closing them", DRAIN);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stopQuietly(server);
    timer.shutdownNow();
    readiness.close();
    log.info("HTTP API stopped");
  }

  private static void stopQuietly(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      log.warn("the HTTP server did not stop cleanly", e);
    }
  }
}
