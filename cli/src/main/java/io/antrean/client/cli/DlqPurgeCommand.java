package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.client.DeadLetterSelection;
import io.antrean.client.DeadLetters;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code antrean dlq purge}: deletes dead letters for good. */
@Command(
    name = "purge",
    mixinStandardHelpOptions = true,
    header = "Deletes dead letters with their history. This cannot be undone.",
    description = {
      "Name the dead letters by ID, by filter options, or with --all (one of the three). Purging"
          + " by filter or --all needs --yes; without it the command changes nothing and exits"
          + " with 2. IDs are deleted in one call. By filter or --all the command works in chunks:"
          + " it lists up to "
          + DlqPurgeCommand.CHUNK
          + " matching dead letters, deletes them by"
          + " id, and repeats until none match, printing a progress line on stderr after each"
          + " chunk.",
      "Prints how many were deleted. IDs that are unknown or not dead-lettered are left alone and"
          + " counted on stderr (the exit code stays 0).",
      "With --json, prints the PurgeDeadLettersResponse (purged) instead."
    })
final class DlqPurgeCommand implements Callable<Integer> {
  /** How many dead letters one chunk of a purge by filter or --all lists and deletes. */
  static final int CHUNK = 500;

  @ParentCommand private DlqCommand dlq;
  @Spec private CommandSpec spec;
  @Mixin private DeadLetterSelectionOptions selection;

  @Option(
      names = "--yes",
      description = "Confirm a purge by filter or --all, which may delete many jobs.")
  private boolean yes;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    AntreanCli cli = dlq.cli();
    DeadLetterSelection chosen = selection.resolve(spec.commandLine(), cli.now(), "purge");
    requireConfirmation(chosen);
    try (AntreanClient client = cli.connect()) {
      PurgeDeadLettersResponse response =
          chosen.ids().isEmpty()
              ? purgeInChunks(client.deadLetters(), chosen, cli)
              : client.deadLetters().purge(chosen.toPurgeRequest().build());
      if (json) {
        cli.out().println(JsonOutput.print(response));
      } else {
        cli.out().println("purged " + JobText.count(response.getPurged(), "dead letter"));
      }
      reportMissedIds(chosen, response.getPurged(), cli);
    }
    return ExitCodes.OK;
  }

  /**
   * Purges by filter or --all a chunk at a time: lists the first page (purged jobs drop out, so no
   * page token is needed), purges those ids, and repeats until a page is empty or a chunk purges
   * nothing (the jobs left the dead-letter queue some other way, or cannot be purged).
   */
  private static PurgeDeadLettersResponse purgeInChunks(
      DeadLetters deadLetters, DeadLetterSelection chosen, AntreanCli cli) {
    DeadLetterFilter filter = chosen.filter().orElse(DeadLetterFilter.getDefaultInstance());
    long total = 0;
    while (true) {
      List<Long> ids =
          deadLetters.list(filter, CHUNK, null).getJobsList().stream().map(Job::getId).toList();
      if (ids.isEmpty()) {
        break;
      }
      long purged =
          deadLetters
              .purge(PurgeDeadLettersRequest.newBuilder().addAllIds(ids).build())
              .getPurged();
      total += purged;
      cli.err().printf("purged %d dead letters so far...%n", total);
      cli.err().flush();
      if (purged == 0) {
        break;
      }
    }
    return PurgeDeadLettersResponse.newBuilder().setPurged(total).build();
  }

  /** Ids the server did not purge; it says how many it deleted, not which. */
  private static void reportMissedIds(DeadLetterSelection chosen, long purged, AntreanCli cli) {
    long named = chosen.ids().stream().distinct().count();
    long missed = named - purged;
    if (missed > 0) {
      cli.err()
          .printf(
              "antrean: %d of %s %s unknown or not dead-lettered and left alone%n",
              missed, JobText.count(named, "id"), missed == 1 ? "was" : "were");
      cli.err().flush();
    }
  }

  private void requireConfirmation(DeadLetterSelection chosen) {
    if (yes || !chosen.ids().isEmpty()) {
      return;
    }
    String what =
        chosen.isAll()
            ? "--all deletes every dead letter of every queue"
            : "purging by filter deletes every dead letter that matches";
    throw new ParameterException(
        spec.commandLine(), what + " with its history, and cannot be undone; add --yes to confirm");
  }
}
