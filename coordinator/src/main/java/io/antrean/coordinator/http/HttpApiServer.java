package io.antrean.coordinator.http;

import com.sun.net.httpserver.HttpServer;
import io.antrean.coordinator.grpc.AdminServiceCalls;
import io.antrean.coordinator.grpc.JobServiceCalls;
import io.antrean.coordinator.metrics.CoordinatorMetrics;
import java.io.IOException;
import java.net.InetSocketAddress;
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
    int maxBodyBytes =
        (int) Math.min(Integer.MAX_VALUE - 1, maxPayloadBytes * 4L / 3 + 4 + EXTRA_BODY_BYTES);
    ReadinessProbe readiness = new ReadinessProbe(storeRead, READY_TIMEOUT);
    Router router = new Router(metrics.rpcDurations(), maxBodyBytes);
    new JobRoutes(jobs).addTo(router);
    new DeadLetterRoutes(admin).addTo(router);
    new QueueRoutes(admin).addTo(router);
    new OperatorRoutes(admin).addTo(router);
    new OpsRoutes(metrics, readiness).addTo(router);
    new DashboardAssets().addTo(router);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(endpoint.host(), endpoint.port()), 0);
    server.createContext("/", router);
    ThreadPoolExecutor executor = pool();
    server.setExecutor(executor);
    server.start();
    HttpApiServer started = new HttpApiServer(server, router, executor, readiness);
    log.info(
        "HTTP API, /metrics, /healthz and /readyz listening on {}:{}",
        endpoint.host(),
        started.port());
    log.info("dashboard at {}", dashboardUrl(endpoint.host(), started.port()));
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
