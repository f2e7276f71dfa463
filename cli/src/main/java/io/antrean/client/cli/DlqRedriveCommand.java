package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.client.DeadLetterSelection;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code antrean dlq redrive}: sends dead letters back to the pending list. */
@Command(
    name = "redrive",
    mixinStandardHelpOptions = true,
    header = "Sends dead letters back to the pending list with a fresh attempt budget.",
    description = {
      "Name the dead letters by ID, by filter options, or with --all (one of the three). The"
          + " coordinator selects and redrives them in one call, keeping payload, history and"
          + " idempotency key, and spreads them out: --rate of them become leasable per second, so"
          + " a large redrive does not stampede the workers.",
      "By filter or --all, a progress line on stderr says the redrive has started; the single"
          + " call may take a while for a large selection.",
      "Prints how many were redriven and when the last becomes leasable. IDs that are unknown or"
          + " not dead-lettered are skipped and listed on stderr (the exit code stays 0). When"
          + " --limit stops the redrive, stderr says so; run the command again for the rest.",
      "With --json, prints the RedriveDeadLettersResponse (redrivenIds, skippedIds, lastRunAt)"
          + " instead."
    })
final class DlqRedriveCommand implements Callable<Integer> {
  /** The coordinator's limit when the request sets none (RedriveDeadLettersRequest.limit). */
  static final int SERVER_DEFAULT_LIMIT = 10_000;

  /** The coordinator's rate when the request sets none (RedriveDeadLettersRequest.rate). */
  static final double SERVER_DEFAULT_RATE = 100;

  private static final int MAX_IDS_SHOWN = 20;

  @ParentCommand private DlqCommand dlq;
  @Spec private CommandSpec spec;
  @Mixin private DeadLetterSelectionOptions selection;

  @Option(
      names = "--rate",
      paramLabel = "N",
      description = "Jobs per second that become leasable, at most 100000 (default: 100).")
  private Double rate;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "The most jobs to redrive in this run (default: 10000).")
  private Integer limit;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    AntreanCli cli = dlq.cli();
    DeadLetterSelection chosen = selection.resolve(spec.commandLine(), cli.now(), "redrive");
    RedriveDeadLettersRequest request = request(chosen);
    try (AntreanClient client = cli.connect()) {
      if (chosen.ids().isEmpty()) {
        cli.err()
            .printf(
                "redriving %s at %s/s...%n",
                chosen.isAll() ? "every dead letter" : "dead letters matching the filter",
                rateText(
                    request.getRatePerSecond() > 0
                        ? request.getRatePerSecond()
                        : SERVER_DEFAULT_RATE));
        cli.err().flush();
      }
      RedriveDeadLettersResponse response = client.deadLetters().redrive(request);
      if (json) {
        cli.out().println(JsonOutput.print(response));
      } else {
        cli.out().println(summary(response));
      }
      warn(chosen, response, cli);
    }
    return ExitCodes.OK;
  }

  private RedriveDeadLettersRequest request(DeadLetterSelection chosen) {
    RedriveDeadLettersRequest.Builder request = chosen.toRedriveRequest();
    if (rate != null) {
      if (!(rate > 0)) {
        throw new ParameterException(spec.commandLine(), "--rate must be positive: " + rate);
      }
      request.setRatePerSecond(rate);
    }
    if (limit != null) {
      if (limit <= 0) {
        throw new ParameterException(spec.commandLine(), "--limit must be positive: " + limit);
      }
      request.setLimit(limit);
    }
    return request.build();
  }

  private static String rateText(double rate) {
    return rate == Math.rint(rate) && rate < 1e15
        ? String.valueOf((long) rate)
        : String.valueOf(rate);
  }

  private static String summary(RedriveDeadLettersResponse response) {
    int count = response.getRedrivenIdsCount();
    if (count == 0) {
      return "redrove nothing: no dead letter was selected";
    }
    StringBuilder line = new StringBuilder("redrove ").append(JobText.count(count, "dead letter"));
    if (count <= MAX_IDS_SHOWN) {
      line.append(" (").append(joined(response.getRedrivenIdsList())).append(')');
    }
    return line.append("; the last becomes leasable at ")
        .append(JobText.instant(response.getLastRunAt()))
        .toString();
  }

  private void warn(
      DeadLetterSelection chosen, RedriveDeadLettersResponse response, AntreanCli cli) {
    if (response.getSkippedIdsCount() > 0) {
      cli.err()
          .printf(
              "antrean: skipped %s that %s unknown or not dead-lettered: %s%n",
              JobText.count(response.getSkippedIdsCount(), "id"),
              response.getSkippedIdsCount() == 1 ? "is" : "are",
              joined(response.getSkippedIdsList()));
    }
    int effectiveLimit = limit == null ? SERVER_DEFAULT_LIMIT : limit;
    if (chosen.ids().isEmpty() && response.getRedrivenIdsCount() >= effectiveLimit) {
      cli.err()
          .printf(
              "antrean: stopped at the limit of %d; more dead letters may match. Run again for the"
                  + " rest (after %s to keep to the rate), or raise --limit.%n",
              effectiveLimit, JobText.instant(response.getLastRunAt()));
    }
    cli.err().flush();
  }

  private static String joined(List<Long> ids) {
    return ids.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }
}
