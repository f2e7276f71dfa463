package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code antrean list}: one page of jobs as a table. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    header = "Prints one page of jobs, newest first.",
    description =
        "Prints a table of jobs and, when there are more, the --page-token of the next page. With"
            + " --json, prints the ListJobsResponse (jobs and nextPageToken) instead.")
final class ListCommand implements Callable<Integer> {
  private static final int MAX_ERROR_CHARS = 60;

  /** The states --state accepts, in lower case on the command line. */
  enum StateFilter {
    PENDING(JobState.JOB_STATE_PENDING),
    RUNNING(JobState.JOB_STATE_RUNNING),
    SUCCEEDED(JobState.JOB_STATE_SUCCEEDED),
    FAILED(JobState.JOB_STATE_FAILED),
    CANCELLED(JobState.JOB_STATE_CANCELLED),
    WAITING(JobState.JOB_STATE_WAITING);

    private final JobState state;

    StateFilter(JobState state) {
      this.state = state;
    }

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  @ParentCommand private AntreanCli cli;

  @Option(names = "--queue", description = "Only jobs of this queue.")
  private String queue;

  @Option(names = "--type", description = "Only jobs of this type.")
  private String type;

  @Option(names = "--state", description = "Only jobs in this state: ${COMPLETION-CANDIDATES}.")
  private StateFilter state;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Jobs per page, at most 1000 (default: the coordinator's, 100).")
  private Integer limit;

  @Option(
      names = "--page-token",
      paramLabel = "TOKEN",
      description = "Page to show, from a previous list.")
  private String pageToken;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    try (AntreanClient client = cli.connect()) {
      ListJobsResponse response = client.listJobs(request());
      if (json) {
        cli.out().println(JsonOutput.print(response));
      } else {
        printTable(response, cli.out());
      }
    }
    return ExitCodes.OK;
  }

  private ListJobsRequest request() {
    ListJobsRequest.Builder request = ListJobsRequest.newBuilder();
    if (queue != null) {
      request.setQueue(queue);
    }
    if (type != null) {
      request.setType(type);
    }
    if (state != null) {
      request.setState(state.state);
    }
    if (limit != null) {
      request.setPageSize(limit);
    }
    if (pageToken != null) {
      request.setPageToken(pageToken);
    }
    return request.build();
  }

  private static void printTable(ListJobsResponse response, PrintWriter out) {
    TextTable table = new TextTable("ID", "QUEUE", "TYPE", "STATE", "ATTEMPTS", "LAST ERROR");
    for (Job job : response.getJobsList()) {
      table.add(
          job.getId(),
          job.getQueue(),
          job.getType(),
          JobText.state(job.getState()),
          job.getAttempts(),
          JobText.orDash(JobText.oneLine(job.getLastError(), MAX_ERROR_CHARS)));
    }
    if (table.isEmpty()) {
      out.println("no jobs");
    } else {
      table.print(out);
    }
    if (!response.getNextPageToken().isEmpty()) {
      out.println("next page: --page-token " + response.getNextPageToken());
    }
  }
}
