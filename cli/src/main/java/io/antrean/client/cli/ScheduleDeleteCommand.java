package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean schedule delete NAME}: deletes a schedule; the jobs it enqueued stay. */
@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    header = "Deletes a schedule; the jobs it already enqueued stay.",
    description = {"An unknown name fails with NOT_FOUND (exit code 1)."})
final class ScheduleDeleteCommand implements Callable<Integer> {
  @ParentCommand private ScheduleCommand schedule;

  @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name.")
  private String name;

  @Override
  public Integer call() {
    AntreanCli cli = schedule.cli();
    try (AntreanClient client = cli.connect()) {
      client.schedules().delete(name);
      cli.out().println("schedule " + name + " deleted");
    }
    return ExitCodes.OK;
  }
}
