package io.antrean.worker;

import io.antrean.channel.ChannelSecurity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The runnable worker: {@code java -jar antrean-worker-runner.jar [options]}. It runs every handler
 * found through {@link JobHandlerProvider} that is {@linkplain JobHandlerProvider#loadedByDefault()
 * loaded by default} (the bundled examples included, but not those for tests and benchmarks such as
 * {@code crash}), or only those named with {@code --types}.
 *
 * <p>{@code --coordinator} defaults to the environment variable {@code ANTREAN_COORDINATOR} (as for
 * the CLI), else {@code 127.0.0.1:7400}.
 *
 * <p>Process protection: the first SIGTERM or SIGINT starts a graceful shutdown (no new leases,
 * running jobs get {@code --shutdown-grace} to finish while heartbeats go on, the rest are
 * interrupted and released) and the process exits 0 when it is done; a second signal skips what is
 * left of the grace. The signals are trapped first thing in {@code main}, so a signal that arrives
 * while the JVM is still starting exits 0 too, without starting the worker. An exception that
 * escapes any thread (a bug in the worker itself, never a handler's failure) is logged at ERROR and
 * halts the JVM with status {@value #BUG_EXIT_STATUS} at once, so the orchestrator restarts a clean
 * process. Bad options exit 2.
 */
@Command(
    name = "antrean-worker",
    mixinStandardHelpOptions = true,
    version = "antrean-worker 0.1.0",
    description = "Leases jobs from an Antrean coordinator and runs them.")
public final class WorkerMain implements Callable<Integer> {
  /** Exit status after an uncaught exception (EX_SOFTWARE). */
  static final int BUG_EXIT_STATUS = 70;

  @Spec private CommandSpec spec;

  private final StopSignals signals;

  @Option(
      names = "--coordinator",
      paramLabel = "TARGET",
      description =
          "Coordinator gRPC address: HOST:PORT, a comma-separated list, or dns:///name:port;"
              + " calls and long-polls go round-robin over healthy coordinators"
              + " (env ANTREAN_COORDINATOR; default: ${DEFAULT-VALUE}).",
      defaultValue = "${env:ANTREAN_COORDINATOR:-127.0.0.1:7400}")
  private String coordinator;

  @Option(
      names = "--tls-ca",
      paramLabel = "PEM",
      description = "Connect over TLS, trusting these CA certificates (PEM).")
  private Path tlsCa;

  @Option(
      names = "--tls-cert",
      paramLabel = "PEM",
      description = "Client certificate chain (PEM) for mutual TLS, with --tls-key.")
  private Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "PEM", description = "Private key (PEM) of --tls-cert.")
  private Path tlsKey;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "File holding the bearer token (default: the ANTREAN_TOKEN environment variable).")
  private Path tokenFile;

  @Option(
      names = "--queue",
      paramLabel = "Q",
      description = "Queue to lease from (default: ${DEFAULT-VALUE}).")
  private String queue = "default";

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      description = "Jobs run at once (default: ${DEFAULT-VALUE}).")
  private int concurrency = 4;

  @Option(
      names = "--prefetch",
      paramLabel = "N",
      description =
          "Most jobs leased beyond --concurrency while handlers finish faster than a round trip to"
              + " the coordinator, 0 for none (default: the same as --concurrency, so that the two"
              + " together stay at most 1024, the leases one heartbeat carries).")
  private Integer prefetch;

  @Option(
      names = "--lease-ttl",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Lease length without a heartbeat, e.g. 500ms, 30s, 2m (default: 30s; at most 10m, the"
              + " longest lease a coordinator grants).")
  private Duration leaseTtl = Duration.ofSeconds(30);

  @Option(
      names = "--shutdown-grace",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Time running jobs get to finish on shutdown (default: 30s).")
  private Duration shutdownGrace = Duration.ofSeconds(30);

  @Option(
      names = "--worker-id",
      paramLabel = "ID",
      description = "Worker id (default: hostname-pid-random).")
  private String workerId;

  @Option(
      names = "--types",
      paramLabel = "TYPE",
      split = ",",
      description =
          "Only these job types (default: every handler loaded by default). The handlers"
              + " for tests and benchmarks (crash, which halts the JVM; sleep; bench.noop) are"
              + " never loaded by default: name them here to run them.")
  private List<String> types = new ArrayList<>();

  /**
   * Runs the worker until it is signalled to stop, then exits with the status described in the
   * class comment.
   *
   * @param args command-line options; {@code --help} lists them
   */
  public static void main(String[] args) {
    // First of all: a SIGTERM from now on, even while the JVM is still starting, is ours (exit 0).
    StopSignals signals = new StopSignals().trap();
    installBugHandler();
    System.exit(new CommandLine(new WorkerMain(signals)).execute(args));
  }

  /** A worker command whose signals are trapped when it is called. */
  public WorkerMain() {
    this(new StopSignals());
  }

  WorkerMain(StopSignals signals) {
    this.signals = signals;
  }

  /**
   * Builds, starts and supervises the worker; returns when it has terminated.
   *
   * @return the exit status, 0 after a clean shutdown
   * @throws InterruptedException if the main thread is interrupted while waiting
   */
  @Override
  public Integer call() throws InterruptedException {
    signals.trap();
    Worker worker = build();
    if (signals.stopRequested()) {
      log().info("stop signal while starting: exiting before the worker started");
      worker.shutdown();
      return 0;
    }
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> drainOnExit(worker), "antrean-shutdown-hook"));
    collectStartUpGarbage();
    worker.start();
    signals.attach((name, count) -> onSignal(worker, name, count));
    while (!worker.awaitTermination(Duration.ofHours(1))) {
      log().debug("worker {} still running", worker.workerId());
    }
    return 0;
  }

  /**
   * Collects the garbage of the start-up (parsing, the handlers' catalog, the channel's set-up)
   * before the first lease, so it lies in the old generation rather than in the young one the first
   * collection under load copies: that first young collection paused each fresh worker 11-29 ms at
   * 500 jobs/s, in the middle of the jobs it held, and 3-5 ms after this (docs/benchmarks.md, "The
   * latency tail taken apart, job by job"). This one costs a few tens of milliseconds while the
   * worker holds no job. {@code -XX:+DisableExplicitGC} turns it off.
   */
  private static void collectStartUpGarbage() {
    System.gc();
  }

  private Worker build() {
    try {
      Map<String, JobHandler> handlers =
          HandlerCatalog.load(WorkerMain.class.getClassLoader(), types);
      if (handlers.isEmpty()) {
        throw new IllegalArgumentException("no job handlers found on the class path");
      }
      WorkerBuilder builder =
          Worker.builder()
              .coordinator(coordinator)
              .security(ChannelSecurity.of(tlsCa, tlsCert, tlsKey, tokenFile, System.getenv()))
              .queue(queue)
              .concurrency(concurrency)
              .leaseTtl(leaseTtl)
              .shutdownGrace(shutdownGrace);
      if (workerId != null) {
        builder.workerId(workerId);
      }
      if (prefetch != null) {
        builder.prefetch(prefetch);
      }
      handlers.forEach(builder::handler);
      return builder.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  private void onSignal(Worker worker, String name, int count) {
    if (count == 1) {
      log()
          .info(
              "SIG{}: shutting down gracefully within {} ms; signal again to stop at once",
              name,
              shutdownGrace.toMillis());
      worker.shutdown();
    } else {
      log().info("SIG{} again: stopping running jobs now and releasing them", name);
      worker.shutdownNow();
    }
  }

  /** The fallback when the JVM shuts down without a trapped signal (SIGHUP, System.exit). */
  private void drainOnExit(Worker worker) {
    if (worker.isTerminated()) {
      return;
    }
    worker.shutdown();
    try {
      worker.awaitTermination(shutdownGrace.plusSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The logger, looked up when first used: initialising logging takes a while, and {@code main}
   * traps the stop signals before anything else.
   */
  private static Logger log() {
    return LoggerFactory.getLogger(WorkerMain.class);
  }

  /** Makes any exception that escapes a thread log at ERROR and halt the JVM with status 70. */
  static void installBugHandler() {
    Thread.setDefaultUncaughtExceptionHandler(WorkerMain::haltOnBug);
  }

  private static void haltOnBug(Thread thread, Throwable error) {
    try {
      log()
          .error(
              "uncaught exception in thread {}: a bug in the worker; exiting with status {}",
              thread.getName(),
              BUG_EXIT_STATUS,
              error);
    } finally {
      Runtime.getRuntime().halt(BUG_EXIT_STATUS);
    }
  }
}
