package io.antrean.coordinator;

import io.antrean.coordinator.api.ScheduleMapper;
import io.antrean.coordinator.config.ConfigFile;
import io.antrean.coordinator.core.DeadLetterAlert;
import io.antrean.coordinator.core.InFlightLimits;
import io.antrean.coordinator.core.Retention;
import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.grpc.NetworkThreads;
import io.antrean.coordinator.http.HttpEndpoint;
import io.antrean.coordinator.schedule.Schedule;
import io.antrean.coordinator.security.SecurityConfig;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.postgres.PostgresJobStore;
import io.antrean.coordinator.store.postgres.PostgresOptions;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.proto.v1.ScheduleDefinition;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code antrean coordinator}: runs one coordinator until SIGTERM or SIGINT. */
@Command(
    name = "antrean coordinator",
    mixinStandardHelpOptions = true,
    description = "Runs an Antrean coordinator on the embedded SQLite store or on PostgreSQL.",
    subcommands = TokenCommand.class)
public final class CoordinatorMain implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(CoordinatorMain.class);

  @Option(
      names = "--data-dir",
      defaultValue = "./data",
      description = "Directory of the store (created if missing). Default: ${DEFAULT-VALUE}")
  Path dataDir;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "Address to listen on; 0.0.0.0 for every interface. Default: ${DEFAULT-VALUE}")
  String host;

  @Option(
      names = "--grpc-port",
      defaultValue = "7400",
      description = "gRPC port; 0 picks a free one. Default: ${DEFAULT-VALUE}")
  int grpcPort;

  @Option(
      names = "--http-port",
      defaultValue = "7401",
      description =
          "HTTP port of the JSON API, /metrics, /healthz and /readyz; 0 picks a free one, -1 turns"
              + " HTTP off. Default: ${DEFAULT-VALUE}")
  int httpPort;

  @Option(
      names = "--http-host",
      description = "Address the HTTP server listens on. Default: the --host address")
  String httpHost;

  @Option(
      names = "--store",
      defaultValue = "sqlite",
      description =
          "sqlite (embedded, one coordinator) or postgres (many coordinators on one database)."
              + " Default: ${DEFAULT-VALUE}")
  StoreKind store;

  @Option(
      names = "--young-jobs",
      negatable = true,
      description =
          "SQLite: a plain Enqueue's jobs stay in memory and in their own fsynced log until a fold"
              + " writes each once, in the state it reached (leased, completed);"
              + " docs/architecture.md, Young jobs. On by default with --store sqlite;"
              + " --no-young-jobs writes every job's row from its Enqueue on.")
  Boolean youngJobs;

  @Option(
      names = "--postgres-url",
      description = "jdbc:postgresql://host:port/database, with --store postgres.")
  String postgresUrl;

  @Option(
      names = "--postgres-user",
      defaultValue = "antrean",
      description = "Database role. Default: ${DEFAULT-VALUE}")
  String postgresUser;

  @Option(
      names = "--postgres-password-file",
      description =
          "File holding the role's password. Without it the password comes from the environment"
              + " variable ANTREAN_POSTGRES_PASSWORD, if set. Never given on the command line.")
  Path postgresPasswordFile;

  @Option(
      names = "--postgres-pool-size",
      defaultValue = "10",
      description = "Pooled database connections. Default: ${DEFAULT-VALUE}")
  int postgresPoolSize;

  /** The stores a coordinator can run on. */
  enum StoreKind {
    sqlite,
    postgres
  }

  @Option(
      names = "--config",
      description = "JSON file declaring job types and retry defaults (antrean.config.v1).")
  Path config;

  @Option(
      names = "--sweep-interval",
      defaultValue = "5s",
      converter = DurationConverter.class,
      description = "How often the backup sweep runs. Default: ${DEFAULT-VALUE}")
  Duration sweepInterval;

  @Option(
      names = "--idempotency-window",
      defaultValue = "24h",
      converter = DurationConverter.class,
      description = "How long an idempotency key is remembered. Default: ${DEFAULT-VALUE}")
  Duration idempotencyWindow;

  @Option(
      names = "--retain-succeeded",
      defaultValue = "7d",
      converter = DurationConverter.class,
      description = "Keep SUCCEEDED and CANCELLED jobs this long. Default: ${DEFAULT-VALUE}")
  Duration retainSucceeded;

  @Option(
      names = "--retain-failed",
      defaultValue = "30d",
      converter = DurationConverter.class,
      description = "Keep FAILED jobs (the dead-letter queue) this long. Default: ${DEFAULT-VALUE}")
  Duration retainFailed;

  @Option(
      names = "--dlq-alert-threshold",
      defaultValue = "10",
      description =
          "Warn once when more than this many jobs are dead-lettered within the window."
              + " Default: ${DEFAULT-VALUE}")
  int dlqAlertThreshold;

  @Option(
      names = "--dlq-alert-window",
      defaultValue = "5m",
      converter = DurationConverter.class,
      description =
          "The dead-letter alert window, also used by GetStats. Default: ${DEFAULT-VALUE}")
  Duration dlqAlertWindow;

  @Option(
      names = "--network-threads",
      description =
          "gRPC network threads (event loops), which also run the hot calls. Default: one per"
              + " two cores, at least one")
  Integer networkThreads;

  @Option(
      names = "--ready-file",
      description = "Write the bound gRPC port to this file once serving (for scripts and tests).")
  Path readyFile;

  @Option(
      names = "--http-port-file",
      description =
          "Write the bound HTTP port (-1 when HTTP is off) to this file once serving; it is written"
              + " before --ready-file.")
  Path httpPortFile;

  @Spec CommandSpec spec;

  @Mixin SecurityOptions security;
  @Mixin LimitOptions limits = new LimitOptions();

  /** Whether the SQLite store keeps young jobs: unless {@code --no-young-jobs}. */
  boolean youngJobsOn() {
    return youngJobs == null || youngJobs;
  }

  private JobStore openStore() throws IOException {
    if (store == StoreKind.sqlite) {
      Files.createDirectories(dataDir);
      return SqliteJobStore.open(dataDir, limits.sqlite().withYoungJobs(youngJobsOn()));
    }
    if (Boolean.TRUE.equals(youngJobs)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--young-jobs is for --store sqlite");
    }
    if (postgresUrl == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--store postgres needs --postgres-url");
    }
    String password = System.getenv("ANTREAN_POSTGRES_PASSWORD");
    if (postgresPasswordFile != null) {
      password = Files.readString(postgresPasswordFile, StandardCharsets.UTF_8).strip();
    }
    return PostgresJobStore.open(
        PostgresOptions.of(postgresUrl, postgresUser, password).withPoolSize(postgresPoolSize));
  }

  public static void main(String[] args) {
    Thread.setDefaultUncaughtExceptionHandler(
        (t, e) -> {
          log.error("uncaught exception in thread {}; exiting", t.getName(), e);
          Runtime.getRuntime().halt(70);
        });
    System.exit(new CommandLine(new CoordinatorMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (networkThreads != null && networkThreads < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--network-threads must be at least 1, got " + networkThreads);
    }
    Settings settings =
        Settings.defaults()
            .withIntervals(sweepInterval, idempotencyWindow)
            .withHousekeeping(
                new Retention(
                    retainSucceeded, retainSucceeded, retainFailed, Duration.ofMinutes(1)),
                new DeadLetterAlert(dlqAlertThreshold, dlqAlertWindow));
    if (config != null) {
      settings = ConfigFile.apply(config, settings);
    }
    SecurityConfig securityConfig;
    try {
      securityConfig = security.open(host, httpPort < 0 ? null : httpHostOrHost());
    } catch (IllegalStateException | IllegalArgumentException e) {
      log.error("{}", e.getMessage());
      System.err.println("antrean coordinator: " + e.getMessage());
      security.close();
      return 78;
    }
    InFlightLimits inFlight = limits.inFlight();
    JobStore jobStore = openStore();
    if (config != null) {
      for (Map.Entry<String, QueueLimits> e : ConfigFile.queueLimits(config).entrySet()) {
        jobStore.setQueueLimits(e.getKey(), e.getValue());
        log.info("queue {} concurrency limits from {}: {}", e.getKey(), config, e.getValue());
      }
    }
    NetworkThreads network =
        NetworkThreads.of(networkThreads == null ? NetworkThreads.defaultCount() : networkThreads);
    Coordinator coordinator;
    try {
      coordinator =
          Coordinator.start(
              jobStore,
              settings,
              Clock.systemUTC(),
              network
                  .serve(security.grpcServer(new InetSocketAddress(host, grpcPort)))
                  // Clients ping every 30 s while a long-poll is open; allow it, with margin.
                  .permitKeepAliveTime(20, TimeUnit.SECONDS)
                  .maxInboundMessageSize(limits.grpcMaxMessageBytes())
                  .maxConcurrentCallsPerConnection(limits.maxCallsPerConnection()),
              httpPort < 0 ? null : new HttpEndpoint(httpHostOrHost(), httpPort, limits.http()),
              inFlight,
              securityConfig);
    } catch (RuntimeException | IOException e) {
      network.close();
      throw e;
    }
    log.info("in-flight limits: {}; network threads: {}", inFlight, network.threads());
    if (config != null && !declareSchedules(coordinator)) {
      coordinator.close();
      network.close();
      security.close();
      return 78;
    }
    // SIGTERM and SIGINT are the normal way to stop: close gracefully, then exit 0 (not 143).
    Thread hook =
        new Thread(
            () -> {
              log.info("shutting down");
              coordinator.close();
              network.close();
              security.close();
              System.err.flush();
              Runtime.getRuntime().halt(0);
            },
            "antrean-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    log.info(
        "coordinator listening on {}:{} (store: {}, declared types: {})",
        host,
        coordinator.port(),
        store == StoreKind.sqlite
            ? "sqlite in " + dataDir.toAbsolutePath().normalize()
            : "postgres at " + postgresUrl.replaceAll("(?i)password=[^&]*", "password=***"),
        settings.declaredTypes().isEmpty() ? "any" : settings.declaredTypes());
    if (httpPortFile != null) {
      writeAtomically(httpPortFile, Integer.toString(coordinator.httpPort()));
    }
    if (readyFile != null) {
      writeAtomically(readyFile, Integer.toString(coordinator.port()));
    }
    coordinator.awaitTermination();
    return 0;
  }

  /** Creates or updates the schedules of the config file; false (logged) if one is invalid. */
  private boolean declareSchedules(Coordinator coordinator) {
    List<ScheduleDefinition> declared = ConfigFile.schedules(config);
    for (int i = 0; i < declared.size(); i++) {
      try {
        Schedule s =
            coordinator
                .schedules()
                .declare(ScheduleMapper.command(declared.get(i), "schedules[" + i + "]."));
        log.info("schedule '{}' declared; next fire at {}", s.name(), s.nextFireAt());
      } catch (ValidationException e) {
        log.error("{}: schedules[{}] is not valid: {}", config, i, e.getMessage());
        System.err.println("antrean coordinator: " + config + ": " + e.getMessage());
        return false;
      }
    }
    return true;
  }

  private String httpHostOrHost() {
    return httpHost == null ? host : httpHost;
  }

  private static void writeAtomically(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }
}
