package io.antrean.coordinator.http;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.antrean.coordinator.grpc.AdminServiceCalls;
import io.antrean.coordinator.grpc.JobServiceCalls;
import io.antrean.coordinator.metrics.CoordinatorMetrics;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.security.Sessions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's HTTP server: the JSON API ({@link JobRoutes}, {@link DeadLetterRoutes}), {@code
 * /metrics}, {@code /healthz} and {@code /readyz} ({@link OpsRoutes}), on the JDK's {@link
 * HttpServer}. Requests run on a bounded pool ({@value #THREADS} threads, {@value #QUEUE} waiting
 * connections); beyond that new connections are closed at once rather than queued without bound.
 * Thread-safe.
 */
public final class HttpApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpApiServer.class);
  private static final int THREADS = 8;
  private static final int QUEUE = 256;
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
   * @throws IOException when the address cannot be bound
   */
  public static HttpApiServer start(
      HttpEndpoint endpoint,
      JobServiceCalls jobs,
      AdminServiceCalls admin,
      CoordinatorMetrics metrics,
      Runnable storeRead,
      int maxPayloadBytes)
      throws IOException {
    return start(
        endpoint,
        jobs,
        admin,
        metrics,
        storeRead,
        maxPayloadBytes,
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
      CoordinatorMetrics metrics,
      Runnable storeRead,
      int maxPayloadBytes,
      SecurityConfig security,
      Clock clock)
      throws IOException {
    int maxBodyBytes =
        (int) Math.min(Integer.MAX_VALUE - 1, maxPayloadBytes * 4L / 3 + 4 + EXTRA_BODY_BYTES);
    ReadinessProbe readiness = new ReadinessProbe(storeRead, READY_TIMEOUT);
    HttpGuard guard =
        new HttpGuard(security, new Sessions(SESSION_LIFETIME), endpoint.host(), clock);
    Router router = new Router(metrics.rpcDurations(), maxBodyBytes, guard);
    new SessionRoutes(guard, clock).addTo(router);
    new JobRoutes(jobs).addTo(router);
    new DeadLetterRoutes(admin).addTo(router);
    new QueueRoutes(admin).addTo(router);
    new OperatorRoutes(admin).addTo(router);
    new OpsRoutes(metrics, readiness, security.warning()).addTo(router);
    new DashboardAssets().addTo(router);
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
    ThreadPoolExecutor executor = pool();
    server.setExecutor(executor);
    server.start();
    HttpApiServer started = new HttpApiServer(server, router, executor, readiness);
    log.info(
        "{} API, /metrics, /healthz and /readyz listening on {}:{}",
        security.httpTls() == null ? "HTTP" : "HTTPS",
        endpoint.host(),
        started.port());
    return started;
  }

  private static ThreadPoolExecutor pool() {
    AtomicInteger n = new AtomicInteger();
    return new ThreadPoolExecutor(
        THREADS,
        THREADS,
        60,
        TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(QUEUE),
        r -> {
          Thread t = new Thread(r, "antrean-http-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        },
        new ThreadPoolExecutor.AbortPolicy());
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
