package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.QueueStats;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code antrean stats}: job counts by state and dead-letter growth, one row per queue. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    header = "Prints job counts by state, one row per queue.",
    description = {
      "Prints pending, scheduled, running, succeeded, failed, cancelled and waiting (for their"
          + " dependencies) counts and the oldest pending job's age for each queue. FAILED is the dead-letter queue's depth; FAILED"
          + " LAST <window> counts the jobs that entered it within the coordinator's window (1h"
          + " unless configured otherwise): a sudden rise means something upstream changed.",
      "With --unfinished-only, counts only the jobs not yet finished (pending, scheduled, running"
          + " and waiting), which for one queue costs the coordinator what is left to run rather"
          + " than every job it keeps: the form for a script that waits for a queue to drain.",
      "With --json, prints the GetStatsResponse (queues, asOf and deadLetterWindow) instead."
    })
final class StatsCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;

  @Option(names = "--queue", description = "Only this queue (default: every queue with jobs).")
  private String queue;

  @Option(
      names = "--unfinished-only",
      description = "Count only the jobs not yet finished; queues without any are left out.")
  private boolean unfinishedOnly;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    try (AntreanClient client = cli.connect()) {
      GetStatsResponse response =
          unfinishedOnly ? client.getUnfinishedStats(queue) : client.getStats(queue);
      if (json) {
        cli.out().println(JsonOutput.print(response));
      } else if (unfinishedOnly) {
        printUnfinished(response, cli.out());
      } else {
        printTable(response, cli.out());
      }
    }
    return ExitCodes.OK;
  }

  private static void printTable(GetStatsResponse response, PrintWriter out) {
    // A coordinator that predates the growth figure sends no window; its zeros would read as "no
    // new dead letters", so the column says it does not know.
    boolean growthKnown = response.hasDeadLetterWindow();
    TextTable table =
        new TextTable(
            "QUEUE",
            "PENDING",
            "SCHEDULED",
            "RUNNING",
            "SUCCEEDED",
            "FAILED",
            growthKnown
                ? "FAILED LAST " + JobText.window(response.getDeadLetterWindow())
                : "FAILED RECENTLY",
            "CANCELLED",
            "WAITING",
            "OLDEST PENDING");
    for (QueueStats stats : response.getQueuesList()) {
      table.add(
          stats.getQueue(),
          stats.getPending(),
          stats.getScheduled(),
          stats.getRunning(),
          stats.getSucceeded(),
          stats.getFailed(),
          growthKnown ? stats.getDeadLetteredRecently() : "-",
          stats.getCancelled(),
          stats.getWaiting(),
          JobText.duration(stats.getOldestPendingAge()));
    }
    print(table, "no queues hold jobs", response, out);
  }

  private static void printUnfinished(GetStatsResponse response, PrintWriter out) {
    TextTable table =
        new TextTable("QUEUE", "PENDING", "SCHEDULED", "RUNNING", "WAITING", "OLDEST PENDING");
    for (QueueStats stats : response.getQueuesList()) {
      // A coordinator older than unfinished_only answers every queue that holds jobs.
      if (stats.getPending() + stats.getScheduled() + stats.getRunning() + stats.getWaiting()
          == 0) {
        continue;
      }
      table.add(
          stats.getQueue(),
          stats.getPending(),
          stats.getScheduled(),
          stats.getRunning(),
          stats.getWaiting(),
          JobText.duration(stats.getOldestPendingAge()));
    }
    print(table, "no queues hold unfinished jobs", response, out);
  }

  private static void print(
      TextTable table, String whenEmpty, GetStatsResponse response, PrintWriter out) {
    if (table.isEmpty()) {
      out.println(whenEmpty);
    } else {
      table.print(out);
    }
    out.println("as of " + JobText.instant(response.getAsOf()));
  }
}
