package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code antrean dlq list}: one page of dead letters as a table. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    header = "Prints one page of dead letters, newest first.",
    description =
        "Prints id, queue, type, attempts, when the job failed and its last error and, when there"
            + " are more, the --page-token of the next page. With --json, prints the"
            + " ListDeadLettersResponse (jobs and nextPageToken) instead.")
final class DlqListCommand implements Callable<Integer> {
  private static final int MAX_ERROR_CHARS = 60;

  @ParentCommand private DlqCommand dlq;
  @Spec private CommandSpec spec;
  @Mixin private DeadLetterFilterOptions filter;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Dead letters per page, at most 1000 (default: the coordinator's, 100).")
  private Integer limit;

  @Option(
      names = "--page-token",
      paramLabel = "TOKEN",
      description = "Page to show, from a previous list with the same filter.")
  private String pageToken;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    ListDeadLettersRequest request = request();
    AntreanCli cli = dlq.cli();
    try (AntreanClient client = cli.connect()) {
      ListDeadLettersResponse response = client.deadLetters().list(request);
      if (json) {
        cli.out().println(JsonOutput.print(response));
      } else {
        printTable(response, cli.out());
      }
    }
    return ExitCodes.OK;
  }

  private ListDeadLettersRequest request() {
    ListDeadLettersRequest.Builder request = ListDeadLettersRequest.newBuilder();
    DeadLetterFilter deadLetterFilter = filter.toFilter(dlq.cli().now(), spec.commandLine());
    if (!deadLetterFilter.equals(DeadLetterFilter.getDefaultInstance())) {
      request.setFilter(deadLetterFilter);
    }
    if (limit != null) {
      request.setPageSize(limit);
    }
    if (pageToken != null) {
      request.setPageToken(pageToken);
    }
    return request.build();
  }

  private static void printTable(ListDeadLettersResponse response, PrintWriter out) {
    TextTable table = new TextTable("ID", "QUEUE", "TYPE", "ATTEMPTS", "FAILED AT", "LAST ERROR");
    for (Job job : response.getJobsList()) {
      table.add(
          job.getId(),
          job.getQueue(),
          job.getType(),
          job.getAttempts(),
          JobText.instant(job.getFinishedAt()),
          JobText.orDash(JobText.oneLine(job.getLastError(), MAX_ERROR_CHARS)));
    }
    if (table.isEmpty()) {
      out.println("no dead letters");
    } else {
      table.print(out);
    }
    if (!response.getNextPageToken().isEmpty()) {
      out.println("next page: --page-token " + response.getNextPageToken());
    }
  }
}
