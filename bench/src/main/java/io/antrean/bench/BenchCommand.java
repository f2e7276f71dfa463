package io.antrean.bench;

import io.antrean.channel.CoordinatorChannels;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code antrean bench}: measures a running coordinator, like pgbench or nats bench. It starts no
 * coordinator; it sends load to the coordinators {@code --coordinator} names only (round-robin when
 * there are several), and runs each scenario on a fresh {@code bench-<random>} queue unless {@code
 * --queue} names one. Every run is bounded: by the job count, the duration, each call's deadline
 * and {@code --wait}.
 *
 * <p>Exits 0 when every scenario ran; 1 when one failed (the results so far are printed first, then
 * the reason on stderr; a refused call escapes to {@link BenchMain}, which reports it); 2 for a
 * usage error.
 */
@Command(
    name = "antrean bench",
    mixinStandardHelpOptions = true,
    versionProvider = BenchCommand.Version.class,
    header = "Measures a running coordinator: enqueue throughput and latency, end to end.",
    description = {
      "Scenarios: enqueue-1 (N Enqueues through the Java client, one in flight: jobs/s, call"
          + " latency), enqueue-50 (N Enqueues on a Produce stream, --concurrency in flight), batch (N jobs in EnqueueBatch calls of"
          + " 1000), end-to-end (N jobs enqueued in batches into the paused queue, then run by"
          + " no-op workers: from resuming the queue to the poll (GetStats of the unfinished jobs)"
          + " that finds none left; --no-prefill enqueues while the workers run and times from the first"
          + " enqueue), latency (Enqueues"
          + " at --rate for --duration: time from just before each Enqueue is sent to the start"
          + " of its handler in a worker), lease (Lease latency with a backlog: --backlog N jobs"
          + " are enqueued first, then --jobs rounds, default 2000, of one timed Lease of one job"
          + " and its Complete; with no backlog each round enqueues the job it leases), or all,"
          + " which runs every scenario but lease.",
      "Warm-up: enqueue-1 and enqueue-50 first make min(N, 1000) calls the same way,"
          + " end-to-end first runs min(N, 2000) jobs (--warm-up-jobs) the same way, and latency"
          + " first runs one job, then sends for one second at --rate (or --warm-up-jobs jobs);"
          + " those are not measured, so"
          + " the workers are serving and the JVMs have begun compiling the paths measured (fresh"
          + " worker JVMs take tens of thousands of jobs to finish: a larger --warm-up-jobs"
          + " measures long-running workers).",
      "Jobs are of type bench.noop with a JSON payload of about --payload-bytes. Each scenario"
          + " uses a fresh bench-<random> queue unless --queue is given; the jobs the enqueue"
          + " scenarios and lease leave in a fresh queue are run afterwards by in-process workers"
          + " (--no-drain to keep them).",
      "Workers: end-to-end and latency start N worker processes (--worker-processes, default"
          + " 2), each the runnable worker (java -jar antrean-worker-runner.jar --types bench.noop)"
          + " running K jobs at a time (--worker-concurrency, default 25), and stop them with"
          + " SIGTERM when the scenario ends. With --in-process-workers the N workers run in the"
          + " bench's JVM on the same worker library instead, a diagnostic of the coordinator"
          + " alone. end-to-end with --queue expects external workers with a bench.noop handler"
          + " already serving that queue, unless --worker-processes is given. The bench.noop"
          + " handler reports its start in the job's result, {\"startedAtMicros\":N}, which"
          + " latency reads back with ListJobs once every job has run; both ends are read from"
          + " this machine's clock.",
      "Prints a table, or one JSON document with --json; progress lines go to stderr once a"
          + " second, unless --json is given and stderr is not a terminal; --progress or"
          + " --no-progress overrides."
    })
public final class BenchCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--coordinator",
      paramLabel = "TARGET",
      defaultValue = "${env:ANTREAN_COORDINATOR:-127.0.0.1:7400}",
      description =
          "The coordinator's gRPC address: HOST:PORT, a comma-separated list, or"
              + " dns:///name:port (env ANTREAN_COORDINATOR; default: ${DEFAULT-VALUE}).")
  private String coordinator;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "Deadline of each call to the coordinator, e.g. 500ms, 10s (default: ${DEFAULT-VALUE}).")
  private Duration timeout;

  @Parameters(
      index = "0",
      paramLabel = "SCENARIO",
      description = "enqueue-1, enqueue-50, batch, end-to-end, latency, lease or all.")
  private String scenarioName;

  @Mixin private BenchOptions options;

  private final ChannelOpener opener;
  private final Function<BenchSettings, WorkerLaunch> launches;

  /**
   * The command as {@code antrean bench} runs it: plaintext gRPC to {@code --coordinator}, worker
   * processes from the runnable worker's jar with the JVM options in {@code
   * ANTREAN_WORKER_JAVA_OPTS}.
   */
  public BenchCommand() {
    this(
        ChannelOpener.COORDINATORS,
        settings ->
            WorkerLaunch.runnableJar(settings.workerJar(), WorkerLaunch.jvmOptionsFromEnv()));
  }

  /**
   * @param launches how worker processes are started for these settings
   */
  BenchCommand(ChannelOpener opener, Function<BenchSettings, WorkerLaunch> launches) {
    this.opener = opener;
    this.launches = launches;
  }

  @Override
  public Integer call() {
    List<Scenario> scenarios;
    BenchSettings settings;
    try {
      scenarios = Scenario.select(scenarioName);
      settings = options.settings(ProgressTicker.stderrIsTerminal());
      scenarios.forEach(settings::checkFor);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    try {
      CoordinatorChannels.forTargets(coordinator);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--coordinator: " + e.getMessage(), e);
    }
    List<BenchResult> results = new ArrayList<>();
    try (BenchTarget target = new BenchTarget(opener, coordinator, timeout)) {
      BenchContext context =
          new BenchContext(
              target,
              settings,
              new BenchPayload(settings.payloadBytes()),
              err(),
              () -> launches.apply(settings));
      for (Scenario scenario : scenarios) {
        results.add(run(scenario, context));
      }
    } catch (BenchFailedException e) {
      print(coordinator, results);
      err().println("antrean bench: " + e.getMessage());
      err().flush();
      return BenchMain.FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      print(coordinator, results);
      err().println("antrean bench: interrupted");
      err().flush();
      return BenchMain.FAILED;
    } catch (RuntimeException e) {
      print(coordinator, results);
      throw e;
    }
    print(coordinator, results);
    return 0;
  }

  private static BenchResult run(Scenario scenario, BenchContext context)
      throws InterruptedException {
    switch (scenario) {
      case ENQUEUE_1:
        return new EnqueueScenario(context, scenario, 1).run();
      case ENQUEUE_50:
        return new EnqueueScenario(context, scenario, context.settings().concurrency()).run();
      case BATCH:
        return new BatchEnqueueScenario(context).run();
      case END_TO_END:
        return new EndToEndScenario(context).run();
      case LATENCY:
        return new LatencyScenario(context).run();
      case LEASE:
        return new LeaseScenario(context).run();
      default:
        throw new IllegalStateException("no runner for " + scenario);
    }
  }

  private void print(String coordinator, List<BenchResult> results) {
    PrintWriter out = spec.commandLine().getOut();
    if (options.json()) {
      out.println(ResultReport.json(coordinator, results));
    } else if (!results.isEmpty()) {
      ResultReport.printTable(results, out);
    }
    out.flush();
  }

  /** The coordinator this run measures, for messages. */
  String coordinator() {
    return coordinator;
  }

  private PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** {@code --version}: the bench's jar version. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = BenchCommand.class.getPackage().getImplementationVersion();
      return new String[] {"antrean bench " + (version == null ? "(development build)" : version)};
    }
  }
}
