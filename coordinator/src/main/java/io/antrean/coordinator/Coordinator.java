package io.antrean.coordinator;

import io.antrean.coordinator.api.AdminServiceCalls;
import io.antrean.coordinator.api.JobServiceCalls;
import io.antrean.coordinator.api.ScheduleServiceCalls;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.core.BackgroundDuties;
import io.antrean.coordinator.core.DeadLetters;
import io.antrean.coordinator.core.InFlightLimits;
import io.antrean.coordinator.core.JitteredBackoff;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.JobWatchers;
import io.antrean.coordinator.core.QueueControl;
import io.antrean.coordinator.core.QueueRates;
import io.antrean.coordinator.core.RecoveryCounters;
import io.antrean.coordinator.core.RetentionSweep;
import io.antrean.coordinator.core.ScheduleDuty;
import io.antrean.coordinator.core.SchedulerEvents;
import io.antrean.coordinator.core.Schedules;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.core.WorkerRegistry;
import io.antrean.coordinator.grpc.AdmissionInterceptor;
import io.antrean.coordinator.grpc.AuthInterceptor;
import io.antrean.coordinator.grpc.CoordinatorServer;
import io.antrean.coordinator.grpc.RpcMetricsInterceptor;
import io.antrean.coordinator.http.HttpApiServer;
import io.antrean.coordinator.http.HttpEndpoint;
import io.antrean.coordinator.metrics.CoordinatorMetrics;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.store.JobStore;
import io.grpc.ServerBuilder;
import io.grpc.ServerInterceptor;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running coordinator: store, scheduling core, background duties, gRPC server and (optionally)
 * the HTTP server with metrics, started and stopped in the right order. Owns the store it is given.
 */
public final class Coordinator implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);
  private static final long SHUTDOWN_GRACE_MILLIS = 10_000;
  private static final long WATCH_RECHECK_MILLIS = 1000;
  private static final long WORKER_REGISTRY_SWEEP_MILLIS = 10_000;

  /** How often due schedules are looked for: a fire is at most about this late. */
  private static final long SCHEDULE_TICK_MILLIS = 200;

  private final JobStore store;
  private final JobScheduler scheduler;
  private final JobWatchers watchers;
  private final CoordinatorMetrics metrics;
  private final RecoveryCounters counters;
  private final WorkerRegistry workers = new WorkerRegistry();
  private final QueueRates rates = new QueueRates();
  private final AdminServiceCalls admin;
  private final Schedules schedules;
  private final ScheduleDuty scheduleDuty;
  private final ScheduledExecutorService timers;
  private final ExecutorService dispatch;
  // Where the gRPC calls run that do not stay on the network thread (CoordinatorServer).
  private final ExecutorService callThreads;
  private final BackgroundDuties duties;
  private final CoordinatorServer server;
  private final Admission admission;
  @Nullable private final HttpApiServer http;

  private Coordinator(
      JobStore store,
      Settings settings,
      Clock clock,
      ServerBuilder<?> serverBuilder,
      @Nullable HttpEndpoint httpEndpoint,
      InFlightLimits inFlightLimits,
      SecurityConfig security)
      throws IOException {
    this.store = store;
    this.admission = new Admission(inFlightLimits);
    this.metrics = new CoordinatorMetrics(() -> store.stats(null, clock.instant()));
    metrics.watchLimits(() -> store.jobsHeldByLimits(clock.instant()));
    this.counters = new RecoveryCounters(metrics.schedulerEvents());
    ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(1, daemon("antrean-timer"));
    stpe.setRemoveOnCancelPolicy(true);
    this.timers = stpe;
    this.dispatch = Executors.newFixedThreadPool(2, daemon("antrean-dispatch"));
    this.callThreads = Executors.newCachedThreadPool(daemon("antrean-grpc-call"));
    this.watchers = new JobWatchers(store::get, timers);
    // Catches changes made through another coordinator sharing the store, and missed events.
    timers.scheduleWithFixedDelay(
        watchers::runOnce, WATCH_RECHECK_MILLIS, WATCH_RECHECK_MILLIS, TimeUnit.MILLISECONDS);
    timers.scheduleWithFixedDelay(
        () -> workers.runOnce(clock.instant()),
        WORKER_REGISTRY_SWEEP_MILLIS,
        WORKER_REGISTRY_SWEEP_MILLIS,
        TimeUnit.MILLISECONDS);
    this.scheduler =
        new JobScheduler(
            store,
            settings,
            clock,
            new JitteredBackoff(() -> ThreadLocalRandom.current().nextDouble()),
            timers,
            dispatch,
            SchedulerEvents.both(
                SchedulerEvents.both(metrics.schedulerEvents(), watchers), rates.events(clock)));
    scheduler.trackStoredLeases();
    this.admin =
        new AdminServiceCalls(
            new DeadLetters(scheduler), new QueueControl(scheduler), workers, rates, clock);
    this.schedules = new Schedules(store.schedules(), settings, clock);
    this.scheduleDuty =
        new ScheduleDuty(
            store.schedules(),
            settings.idempotencyWindow(),
            scheduler::announce,
            metrics.scheduleEvents());
    timers.scheduleWithFixedDelay(
        () -> fireSchedules(clock),
        SCHEDULE_TICK_MILLIS,
        SCHEDULE_TICK_MILLIS,
        TimeUnit.MILLISECONDS);
    this.duties =
        new BackgroundDuties(
            scheduler.leaseExpiryDuty(counters),
            scheduler.backupSweep(counters),
            new RetentionSweep(store, settings.retention()),
            scheduler.deadLetterMonitor(),
            clock,
            timers,
            settings.sweepInterval(),
            settings.retention().interval());
    List<ServerInterceptor> interceptors = new ArrayList<>();
    if (security.authenticator() != null) {
      interceptors.add(new AuthInterceptor(security.authenticator()));
    }
    interceptors.add(new AdmissionInterceptor(admission));
    // Added last, so it runs first and times refused calls too.
    interceptors.add(new RpcMetricsInterceptor(metrics.rpcDurations()));
    this.server =
        new CoordinatorServer(
                serverBuilder,
                scheduler,
                watchers,
                workers,
                admin,
                new ScheduleServiceCalls(schedules),
                clock,
                callThreads,
                security.reflection(),
                admission,
                metrics.rpcDurations(),
                interceptors.toArray(ServerInterceptor[]::new))
            .start();
    this.http = httpEndpoint == null ? null : startHttp(httpEndpoint, settings, clock, security);
  }

  private void fireSchedules(Clock clock) {
    try {
      scheduleDuty.runOnce(clock.instant());
    } catch (RuntimeException e) {
      log.warn("looking for due schedules failed; trying again shortly", e);
    }
  }

  private HttpApiServer startHttp(
      HttpEndpoint endpoint, Settings settings, Clock clock, SecurityConfig security)
      throws IOException {
    try {
      return HttpApiServer.start(
          endpoint,
          new JobServiceCalls(scheduler, clock),
          admin,
          new ScheduleServiceCalls(schedules),
          metrics,
          () -> {
            store.requireWritable(); // a store that takes no write is not ready either
            store.pausedQueues();
          },
          settings.maxPayloadBytes(),
          admission,
          security,
          clock);
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Starts a coordinator without HTTP; the store is closed when the coordinator is. */
  public static Coordinator start(
      JobStore store, Settings settings, Clock clock, ServerBuilder<?> serverBuilder)
      throws IOException {
    return new Coordinator(
        store,
        settings,
        clock,
        serverBuilder,
        null,
        InFlightLimits.defaults(),
        SecurityConfig.open());
  }

  /**
   * Starts a coordinator serving gRPC and, unless {@code http} is null, the HTTP API with {@code
   * /metrics}, {@code /healthz} and {@code /readyz}; the store is closed when the coordinator is.
   */
  public static Coordinator start(
      JobStore store,
      Settings settings,
      Clock clock,
      ServerBuilder<?> serverBuilder,
      @Nullable HttpEndpoint http)
      throws IOException {
    return new Coordinator(
        store,
        settings,
        clock,
        serverBuilder,
        http,
        InFlightLimits.defaults(),
        SecurityConfig.open());
  }

  /**
   * Starts a coordinator as {@link #start(JobStore, Settings, Clock, ServerBuilder, HttpEndpoint)}
   * does, holding at most {@code inFlight} in flight (gRPC and HTTP calls alike).
   */
  public static Coordinator start(
      JobStore store,
      Settings settings,
      Clock clock,
      ServerBuilder<?> serverBuilder,
      @Nullable HttpEndpoint http,
      InFlightLimits inFlight)
      throws IOException {
    return new Coordinator(
        store, settings, clock, serverBuilder, http, inFlight, SecurityConfig.open());
  }

  /**
   * Starts a coordinator as {@link #start(JobStore, Settings, Clock, ServerBuilder, HttpEndpoint,
   * InFlightLimits)} does, protected as {@code security} says: identities and roles on gRPC and
   * HTTP, HTTPS, the HTTP names allowed, reflection on or off. TLS on gRPC is the server builder's.
   */
  public static Coordinator start(
      JobStore store,
      Settings settings,
      Clock clock,
      ServerBuilder<?> serverBuilder,
      @Nullable HttpEndpoint http,
      InFlightLimits inFlight,
      SecurityConfig security)
      throws IOException {
    return new Coordinator(store, settings, clock, serverBuilder, http, inFlight, security);
  }

  /**
   * {@link #start(JobStore, Settings, Clock, ServerBuilder, HttpEndpoint, InFlightLimits,
   * SecurityConfig)} with the default in-flight limits.
   */
  public static Coordinator start(
      JobStore store,
      Settings settings,
      Clock clock,
      ServerBuilder<?> serverBuilder,
      @Nullable HttpEndpoint http,
      SecurityConfig security)
      throws IOException {
    return new Coordinator(
        store, settings, clock, serverBuilder, http, InFlightLimits.defaults(), security);
  }

  public int port() {
    return server.port();
  }

  /** The bound HTTP port, or -1 when HTTP is off. */
  public int httpPort() {
    return http == null ? -1 : http.port();
  }

  public CoordinatorMetrics metrics() {
    return metrics;
  }

  public JobScheduler scheduler() {
    return scheduler;
  }

  /** The durable schedules (create, update, pause...), as the ScheduleService serves them. */
  public Schedules schedules() {
    return schedules;
  }

  /** Who watches which job (WatchJob calls). */
  public JobWatchers jobWatchers() {
    return watchers;
  }

  /** What is held in flight now, against which limits. */
  public Admission admission() {
    return admission;
  }

  /** The workers this coordinator has heard from. */
  public WorkerRegistry workers() {
    return workers;
  }

  public RecoveryCounters recoveryCounters() {
    return counters;
  }

  /** Blocks until the server stops. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Stops gracefully: HTTP first (calls in flight get up to a second), then gRPC reports
   * NOT_SERVING, takes no new calls, answers waiting Lease calls empty, ends WatchJob calls with
   * UNAVAILABLE and finishes calls in flight (up to 10 s); then duties stop and the store is
   * closed.
   */
  @Override
  public void close() {
    if (http != null) {
      http.close();
    }
    server.beginShutdown();
    scheduler.releaseWaitingLeaseCalls();
    watchers.close();
    try {
      server.awaitShutdown(SHUTDOWN_GRACE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    duties.close();
    timers.shutdownNow();
    callThreads.shutdownNow();
    // What is queued runs first: jobs of answers the stopping streams could not send go back.
    dispatch.shutdown();
    try {
      if (!dispatch.awaitTermination(5, TimeUnit.SECONDS)) {
        dispatch.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      dispatch.shutdownNow();
    }
    store.close();
    log.info(
        "coordinator stopped; expired leases taken back by timer: {}, by sweep: {}",
        counters.expiredByTimer(),
        counters.expiredBySweep());
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
