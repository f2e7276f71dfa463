package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.QueueStats;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code antrean queue list}: every queue with its pause state and counts, one row each. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    header = "Prints every queue with its pause state and job counts, one row per queue.",
    description = {
      "Lists every queue that holds jobs or has ever been paused, ordered by name. PAUSED is the"
          + " time the queue was paused, or 'no'; OLDEST PENDING is the age of its oldest pending"
          + " job, or '-' when none is pending.",
      "With --json, prints the ListQueuesResponse ({\"queues\": [...]}) instead."
    })
final class QueueListCommand implements Callable<Integer> {
  @ParentCommand private QueueCommand queue;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    AntreanCli cli = queue.cli();
    try (AntreanClient client = cli.connect()) {
      List<QueueInfo> queues = client.listQueues();
      if (json) {
        cli.out().println(JsonOutput.print(ListQueuesResponse.newBuilder().addAllQueues(queues)));
      } else {
        printTable(queues, cli.out());
      }
    }
    return ExitCodes.OK;
  }

  private static void printTable(List<QueueInfo> queues, PrintWriter out) {
    if (queues.isEmpty()) {
      out.println("no queues");
      return;
    }
    TextTable table =
        new TextTable(
            "QUEUE",
            "PAUSED",
            "PENDING",
            "SCHEDULED",
            "RUNNING",
            "SUCCEEDED",
            "FAILED",
            "OLDEST PENDING");
    for (QueueInfo info : queues) {
      QueueStats stats = info.getStats();
      table.add(
          info.getName(),
          paused(info),
          stats.getPending(),
          stats.getScheduled(),
          stats.getRunning(),
          stats.getSucceeded(),
          stats.getFailed(),
          stats.getPending() == 0 ? "-" : JobText.duration(stats.getOldestPendingAge()));
    }
    table.print(out);
  }

  /** When the queue was paused, {@code yes} if the time is unknown, or {@code no}. */
  static String paused(QueueInfo info) {
    if (!info.getPaused()) {
      return "no";
    }
    return info.hasPausedAt() ? JobText.instant(info.getPausedAt()) : "yes";
  }
}
