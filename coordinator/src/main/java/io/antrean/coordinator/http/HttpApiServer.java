package io.antrean.coordinator.http;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.antrean.coordinator.api.AdminServiceCalls;
import io.antrean.coordinator.api.JobServiceCalls;
import io.antrean.coordinator.api.ScheduleServiceCalls;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.metrics.CoordinatorMetrics;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.Sessions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's HTTP server: the JSON API ({@link JobRoutes}, {@link DeadLetterRoutes}, {@link
 * ScheduleRoutes}...), {@code /metrics}, {@code /healthz} and {@code /readyz} ({@link OpsRoutes}),
 * on the JDK's {@link HttpServer}, with the connection limit and timeouts of {@link
 * HttpServerLimits}.
 *
 * <p>The JDK server reads a request on the executor's thread, so a client that stalls half-way
 * through its body holds that thread until the request timeout closes its connection. The executor
 * therefore has a thread for every connection the server may hold open (no queue): a probe never
 * waits behind stalled or slow API calls, and API work is bounded by admission control instead of
 * by a small pool. Thread-safe.
 */
public final class HttpApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpApiServer.class);

  /** Threads beyond one per connection, for a connection's next request while its last ends. */
  private static final int SPARE_THREADS = 16;

  private static final int EXTRA_BODY_BYTES = 64 * 1024;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration DRAIN = Duration.ofSeconds(1);
  private static final Duration SESSION_LIFETIME = Duration.ofHours(12);

  private final HttpServer server;
  private final Router router;
  private final ThreadPoolExecutor executor;
  private final ReadinessProbe readiness;

  private HttpApiServer(
      HttpServer server, Router router, ThreadPoolExecutor executor, ReadinessProbe readiness) {
    this.server = server;
    this.router = router;
    this.executor = executor;
    this.readiness = readiness;
  }

  /**
   * Binds and starts serving.
   *
   * @param maxPayloadBytes the core's payload limit; a request body may be its base64 size plus 64
   *     KiB, and a larger one is answered 413
   * @param storeRead a cheap store read for {@code /readyz}; it throws when the store cannot answer
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
    ReadinessProbe readiness = new ReadinessProbe(storeRead, READY_TIMEOUT);
    HttpGuard guard =
        new HttpGuard(security, new Sessions(SESSION_LIFETIME), endpoint.host(), clock);
    Router router = new Router(metrics.rpcDurations(), maxBodyBytes, admission, guard);
    new SessionRoutes(guard, clock).addTo(router);
    new JobRoutes(jobs).addTo(router);
    new DeadLetterRoutes(admin).addTo(router);
    new QueueRoutes(admin).addTo(router);
    new ScheduleRoutes(schedules).addTo(router);
    new OperatorRoutes(admin).addTo(router);
    new OpsRoutes(metrics, readiness, security.warning()).addTo(router);
    new DashboardAssets().addTo(router);
    HttpServerLimits.applyDefaults();
    HttpServerLimits limits = HttpServerLimits.effective();
    InetSocketAddress address = new InetSocketAddress(endpoint.host(), endpoint.port());
    HttpServer server;
    if (security.httpTls() == null) {
      server = HttpServer.create(address, 0);
    } else {
      HttpsServer https = HttpsServer.create(address, 0);
      https.setHttpsConfigurator(new HttpsConfigurator(security.httpTls()));
      server = https;
    }
    server.createContext("/", router);
    ThreadPoolExecutor executor = pool(limits.maxConnections() + SPARE_THREADS);
    server.setExecutor(executor);
    server.start();
    HttpApiServer started = new HttpApiServer(server, router, executor, readiness);
    log.info(
        "{} API, /metrics, /healthz and /readyz listening on {}:{} ({})",
        security.httpTls() == null ? "HTTP" : "HTTPS",
        endpoint.host(),
        started.port(),
        limits);
    log.info("dashboard at {}", dashboardUrl(endpoint.host(), started.port()));
    return started;
  }

  /** Hands every request a thread at once or refuses it; the server then closes the connection. */
  private static ThreadPoolExecutor pool(int threads) {
    AtomicInteger n = new AtomicInteger();
    return new ThreadPoolExecutor(
        0,
        threads,
        30,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        r -> {
          Thread t = new Thread(r, "antrean-http-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        },
        new ThreadPoolExecutor.AbortPolicy());
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
    return server.getAddress().getPort();
  }

  /**
   * Gives calls in flight up to a second (later calls are answered 503), then closes the socket and
   * stops the threads.
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
    // Not stop(n > 0): before Java 21 it always waits the full n seconds.
    server.stop(0);
    executor.shutdown();
    try {
      if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      executor.shutdownNow();
    }
    readiness.close();
    log.info("HTTP API stopped");
  }
}
