package io.antrean.coordinator;

import io.antrean.coordinator.core.BackgroundDuties;
import io.antrean.coordinator.core.BackupSweep;
import io.antrean.coordinator.core.JitteredBackoff;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.LeaseExpiryDuty;
import io.antrean.coordinator.core.RecoveryCounters;
import io.antrean.coordinator.core.RetentionSweep;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.grpc.CoordinatorServer;
import io.antrean.coordinator.store.JobStore;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running coordinator: store, scheduling core, background duties and gRPC server, started and
 * stopped in the right order. Owns the store it is given.
 */
public final class Coordinator implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);
  private static final long SHUTDOWN_GRACE_MILLIS = 10_000;

  private final JobStore store;
  private final JobScheduler scheduler;
  private final RecoveryCounters counters = new RecoveryCounters();
  private final ScheduledExecutorService timers;
  private final ExecutorService dispatch;
  private final BackgroundDuties duties;
  private final CoordinatorServer server;

  private Coordinator(
      JobStore store, Settings settings, Clock clock, ServerBuilder<?> serverBuilder)
      throws IOException {
    this.store = store;
    ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(1, daemon("antrean-timer"));
    stpe.setRemoveOnCancelPolicy(true);
    this.timers = stpe;
    this.dispatch = Executors.newFixedThreadPool(2, daemon("antrean-dispatch"));
    this.scheduler =
        new JobScheduler(
            store,
            settings,
            clock,
            new JitteredBackoff(() -> ThreadLocalRandom.current().nextDouble()),
            timers,
            dispatch);
    scheduler.trackStoredLeases();
    this.duties =
        new BackgroundDuties(
            new LeaseExpiryDuty(scheduler, counters),
            new BackupSweep(scheduler, counters),
            new RetentionSweep(store, settings.retention()),
            scheduler.deadLetterMonitor(),
            clock,
            timers,
            settings.sweepInterval(),
            settings.retention().interval());
    this.server = new CoordinatorServer(serverBuilder, scheduler, clock).start();
  }

  /** Starts a coordinator on the store; the store is closed when the coordinator is. */
  public static Coordinator start(
      JobStore store, Settings settings, Clock clock, ServerBuilder<?> serverBuilder)
      throws IOException {
    return new Coordinator(store, settings, clock, serverBuilder);
  }

  public int port() {
    return server.port();
  }

  public JobScheduler scheduler() {
    return scheduler;
  }

  public RecoveryCounters recoveryCounters() {
    return counters;
  }

  /** Blocks until the server stops. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Stops gracefully: NOT_SERVING, no new calls, waiting Lease calls answered empty, calls in
   * flight finished (up to 10 s), then duties stopped and the store closed.
   */
  @Override
  public void close() {
    server.beginShutdown();
    scheduler.releaseWaitingLeaseCalls();
    try {
      server.awaitShutdown(SHUTDOWN_GRACE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    duties.close();
    timers.shutdownNow();
    dispatch.shutdownNow();
    try {
      dispatch.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
