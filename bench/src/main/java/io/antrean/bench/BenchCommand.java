package io.antrean.client.bench;

import io.antrean.channel.CoordinatorChannels;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code antrean bench}: measures a running coordinator, like pgbench or nats bench. It starts no
 * coordinator; it reads {@code --coordinator} and {@code --timeout} from the parent command, sends
 * load to the coordinators named there only (round-robin when there are several), and runs each
 * scenario on a fresh {@code bench-<random>} queue unless {@code --queue} names one. Every run is
 * bounded: by the job count, the duration, each call's deadline and {@code --wait}.
 *
 * <p>Exits 0 when every scenario ran; 1 when one failed (the results so far are printed first, then
 * the reason on stderr; a refused call is reported and exits as the CLI's other commands do); 2 for
 * a usage error.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    header = "Measures a running coordinator: enqueue throughput and latency, end to end.",
    description = {
      "Scenarios: enqueue-1 (N unary Enqueues, one in flight: jobs/s, call latency), enqueue-50"
          + " (N unary Enqueues, --concurrency in flight), batch (N jobs in EnqueueBatch calls of"
          + " 1000), end-to-end (N jobs enqueued in batches and run by no-op workers: first"
          + " enqueue to last completion), latency (Enqueues at --rate for --duration: time from"
          + " sending Enqueue to a worker's Lease response carrying the job), lease (Lease latency"
          + " with a backlog: --backlog N jobs are enqueued first, then --jobs rounds, default"
          + " 2000, of one timed Lease of one job and its Complete; with no backlog each round"
          + " enqueues the job it leases), or all, which runs every scenario but lease.",
      "Warm-up: enqueue-1 and enqueue-50 first make min(N, 1000) calls the same way, and latency"
          + " first sends for one second at --rate; those are not measured (their jobs are run"
          + " like the others), so both JVMs have compiled the paths measured.",
      "Jobs are of type bench.noop with a JSON payload of about --payload-bytes. Each scenario"
          + " uses a fresh bench-<random> queue unless --queue is given; the jobs the enqueue"
          + " scenarios and lease leave in a fresh queue are run afterwards by in-process workers"
          + " (--no-drain to keep them).",
      "Workers: latency always uses W in-process no-op workers (--workers, default 2) that lease"
          + " up to K jobs at a time (--worker-concurrency, default 25). end-to-end does too,"
          + " unless --queue is given: then it expects worker processes with a bench.noop handler"
          + " already serving that queue (or say --workers W to use in-process ones). In-process"
          + " workers report finished jobs in CompleteBatch calls, one in flight each (one"
          + " Complete per job if the coordinator lacks CompleteBatch).",
      "Prints a table, or one JSON document with --json; progress lines go to stderr once a"
          + " second, unless --json is given and stderr is not a terminal; --progress or"
          + " --no-progress overrides."
    })
public final class BenchCommand implements Callable<Integer> {
  // ExitCodes.FAILURE of the CLI: a scenario could not be measured.
  private static final int FAILED = 1;

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "SCENARIO",
      description = "enqueue-1, enqueue-50, batch, end-to-end, latency, lease or all.")
  private String scenarioName;

  @Mixin private BenchOptions options;

  private final ChannelOpener opener;

  /** The command as the CLI runs it: plaintext gRPC to {@code --coordinator}. */
  public BenchCommand() {
    this(ChannelOpener.COORDINATORS);
  }

  BenchCommand(ChannelOpener opener) {
    this.opener = opener;
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
    String coordinator = parentOption("--coordinator");
    Duration timeout = parentOption("--timeout");
    try {
      CoordinatorChannels.forTargets(coordinator);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--coordinator: " + e.getMessage(), e);
    }
    List<BenchResult> results = new ArrayList<>();
    try (BenchTarget target = new BenchTarget(opener, coordinator, timeout)) {
      BenchContext context =
          new BenchContext(target, settings, new BenchPayload(settings.payloadBytes()), err());
      for (Scenario scenario : scenarios) {
        results.add(run(scenario, context));
      }
    } catch (BenchFailedException e) {
      print(coordinator, results);
      err().println("antrean bench: " + e.getMessage());
      err().flush();
      return FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      print(coordinator, results);
      err().println("antrean bench: interrupted");
      err().flush();
      return FAILED;
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
        return new UnaryEnqueueScenario(context, scenario, 1).run();
      case ENQUEUE_50:
        return new UnaryEnqueueScenario(context, scenario, context.settings().concurrency()).run();
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

  /** A global option of the parent {@code antrean} command, which owns it. */
  private <T> T parentOption(String name) {
    CommandSpec parent = spec.parent();
    if (parent == null || parent.findOption(name) == null) {
      throw new IllegalStateException("bench must run as a subcommand of a command with " + name);
    }
    return parent.findOption(name).getValue();
  }

  private PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
