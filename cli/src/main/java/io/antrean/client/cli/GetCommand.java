package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.Job;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean get ID}: one job with its attempt history. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    header = "Prints one job with its attempt history.",
    description = "With --json, prints the GetJobResponse ({\"job\": ...}) instead.")
final class GetCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;

  @Parameters(index = "0", paramLabel = "ID", description = "The job id.")
  private long id;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    try (AntreanClient client = cli.connect()) {
      Job job = client.getJob(id);
      if (json) {
        cli.out().println(JsonOutput.print(GetJobResponse.newBuilder().setJob(job)));
      } else {
        JobBlock.print(job, cli.out());
      }
    }
    return ExitCodes.OK;
  }
}
