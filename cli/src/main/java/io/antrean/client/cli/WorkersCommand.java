package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.ListWorkersResponse;
import io.antrean.proto.v1.WorkerInfo;
import io.antrean.proto.v1.WorkerLiveness;
import io.antrean.proto.v1.WorkerStatus;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code antrean workers}: the workers the coordinator has heard from, one row each. */
@Command(
    name = "workers",
    mixinStandardHelpOptions = true,
    header = "Prints the workers the coordinator has heard from, one row per worker.",
    description = {
      "Lists every worker that called the coordinator (Lease, Heartbeat) and is not yet"
          + " forgotten, ordered by id. STATE is live, or lost once the worker has been silent for"
          + " three heartbeat intervals; HELD is the jobs it holds; LAST SEEN is its last call."
          + " Each coordinator knows only the workers that call it.",
      "With --json, prints the ListWorkersResponse ({\"workers\": [...]}) instead."
    })
final class WorkersCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    try (AntreanClient client = cli.connect()) {
      List<WorkerStatus> workers = client.listWorkers();
      if (json) {
        cli.out()
            .println(JsonOutput.print(ListWorkersResponse.newBuilder().addAllWorkers(workers)));
      } else {
        printTable(workers, cli.out());
      }
    }
    return ExitCodes.OK;
  }

  private static void printTable(List<WorkerStatus> workers, PrintWriter out) {
    if (workers.isEmpty()) {
      out.println("no workers");
      return;
    }
    TextTable table =
        new TextTable(
            "WORKER",
            "STATE",
            "HOST",
            "VERSION",
            "QUEUES",
            "TYPES",
            "CONCURRENCY",
            "HELD",
            "LAST SEEN");
    for (WorkerStatus w : workers) {
      WorkerInfo info = w.getInfo();
      table.add(
          w.getWorkerId(),
          w.getLiveness() == WorkerLiveness.WORKER_LIVENESS_LOST ? "lost" : "live",
          orDash(info.getHost()),
          orDash(info.getVersion()),
          orDash(String.join(",", info.getQueuesList())),
          orDash(String.join(",", info.getTypesList())),
          info.getConcurrency() == 0 ? "-" : info.getConcurrency(),
          w.getJobsHeld(),
          JobText.instant(w.getLastSeen()));
    }
    table.print(out);
  }

  private static String orDash(String s) {
    return s.isEmpty() ? "-" : s;
  }
}
