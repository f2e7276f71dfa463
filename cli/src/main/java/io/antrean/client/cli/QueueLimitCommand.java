package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.QueueLimits;
import io.antrean.proto.v1.RateLimit;
import io.antrean.proto.v1.SetQueueLimitsResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code antrean queue limit Q}: sets or clears a queue's concurrency limits. */
@Command(
    name = "limit",
    mixinStandardHelpOptions = true,
    header = "Sets a queue's concurrency and rate limits, or clears them with --clear.",
    description = {
      "Replaces the queue's limits: at most --max-running of its jobs RUNNING at once across"
          + " every worker and coordinator, and at most --max-running-per-key RUNNING jobs with one"
          + " concurrency key (enqueue --concurrency-key). A limit left out is no limit. A job held"
          + " back waits PENDING without spending an attempt; running jobs are not stopped.",
      "--rate and --rate-per-key take STARTS/DURATION (10/1s, 1/5m): at most STARTS leases per"
          + " DURATION in the queue, or per concurrency key; a token bucket kept in the store, so"
          + " exact across coordinators. Setting the limits refills the buckets.",
      "Prints 'queue Q limits: ...' or 'queue Q has no concurrency limits'. A bad queue name or"
          + " a negative limit is refused with a field violation (exit code 1).",
      "With --json, prints the SetQueueLimitsResponse ({\"queue\": ...}) instead."
    })
final class QueueLimitCommand implements Callable<Integer> {
  @ParentCommand private QueueCommand queue;
  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue's name.")
  private String name;

  @ArgGroup(exclusive = true, multiplicity = "1")
  private Change change;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  /** New limits, or none at all. */
  static final class Change {
    @ArgGroup(exclusive = false)
    Limits limits;

    @Option(names = "--clear", description = "Remove every limit of the queue.")
    boolean clear;
  }

  /** At least one of the two limits. */
  static final class Limits {
    @Option(
        names = "--max-running",
        paramLabel = "N",
        description = "At most N of the queue's jobs running at once.")
    int maxRunning;

    @Option(
        names = "--max-running-per-key",
        paramLabel = "K",
        description = "At most K running jobs per concurrency key.")
    int maxRunningPerKey;

    @Option(
        names = "--rate",
        paramLabel = "STARTS/DURATION",
        converter = RateConverter.class,
        description = "At most STARTS of the queue's jobs started per DURATION, e.g. 10/1s.")
    RateLimit rate;

    @Option(
        names = "--rate-per-key",
        paramLabel = "STARTS/DURATION",
        converter = RateConverter.class,
        description = "At most STARTS jobs per concurrency key started per DURATION.")
    RateLimit ratePerKey;
  }

  @Override
  public Integer call() {
    QueueLimits.Builder limits = QueueLimits.newBuilder();
    if (!change.clear) {
      Limits given = change.limits;
      limits.setMaxRunning(given.maxRunning).setMaxRunningPerKey(given.maxRunningPerKey);
      if (given.rate != null) {
        limits.setRate(given.rate);
      }
      if (given.ratePerKey != null) {
        limits.setRatePerKey(given.ratePerKey);
      }
      if (limits.build().equals(QueueLimits.getDefaultInstance())) {
        throw new ParameterException(
            spec.commandLine(),
            "Give --max-running, --max-running-per-key, --rate, --rate-per-key or --clear");
      }
    }
    AntreanCli cli = queue.cli();
    try (AntreanClient client = cli.connect()) {
      QueueInfo info = client.setQueueLimits(name, limits.build());
      if (json) {
        cli.out().println(JsonOutput.print(SetQueueLimitsResponse.newBuilder().setQueue(info)));
      } else {
        cli.out().println(describe(info));
      }
    }
    return ExitCodes.OK;
  }

  /**
   * {@code queue q limits: at most 10 running, at most 1 running per concurrency key}, or {@code
   * queue q has no concurrency limits}.
   */
  static String describe(QueueInfo info) {
    if (!info.hasLimits()) {
      return "queue " + info.getName() + " has no concurrency limits";
    }
    QueueLimits limits = info.getLimits();
    List<String> parts = new ArrayList<>();
    if (limits.getMaxRunning() > 0) {
      parts.add("at most " + limits.getMaxRunning() + " running");
    }
    if (limits.getMaxRunningPerKey() > 0) {
      parts.add("at most " + limits.getMaxRunningPerKey() + " running per concurrency key");
    }
    if (limits.hasRate()) {
      parts.add(rate(limits.getRate()) + " started");
    }
    if (limits.hasRatePerKey()) {
      parts.add(rate(limits.getRatePerKey()) + " started per concurrency key");
    }
    return "queue " + info.getName() + " limits: " + String.join(", ", parts);
  }

  private static String rate(RateLimit rate) {
    return "at most " + rate.getStarts() + " per " + JobText.duration(rate.getInterval());
  }
}
