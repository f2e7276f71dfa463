package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.Dependency;
import io.antrean.proto.v1.ListDependenciesResponse;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean dependencies ID}: the jobs a job depends on, with their states and results. */
@Command(
    name = "dependencies",
    mixinStandardHelpOptions = true,
    header = "Prints the jobs a job depends on (enqueue --depends-on), with states and results.",
    description = "With --json, prints the ListDependenciesResponse instead.")
final class DependenciesCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;

  @Parameters(index = "0", paramLabel = "ID", description = "The dependent job's id.")
  private long id;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    try (AntreanClient client = cli.connect()) {
      List<Dependency> dependencies = client.listDependencies(id);
      if (json) {
        cli.out()
            .println(
                JsonOutput.print(
                    ListDependenciesResponse.newBuilder().addAllDependencies(dependencies)));
        return ExitCodes.OK;
      }
      if (dependencies.isEmpty()) {
        cli.out().println("job " + id + " depends on no job");
        return ExitCodes.OK;
      }
      TextTable table = new TextTable("ID", "QUEUE", "TYPE", "STATE", "RESULT OR ERROR");
      for (Dependency d : dependencies) {
        table.add(
            String.valueOf(d.getId()),
            d.getQueue(),
            d.getType(),
            JobText.state(d.getState()),
            d.getResult().isEmpty()
                ? JobText.orDash(d.getLastError())
                : JobText.payload(d.getResult(), d.getResultContentType()));
      }
      table.print(cli.out());
    }
    return ExitCodes.OK;
  }
}
