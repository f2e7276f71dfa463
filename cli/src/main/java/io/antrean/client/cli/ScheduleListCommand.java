package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.ListSchedulesResponse;
import io.antrean.proto.v1.Schedule;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code antrean schedule list}: every schedule, one row each. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    header = "Prints every schedule with its next and last fire, one row per schedule.",
    description = {"With --json, prints the ListSchedulesResponse instead."})
final class ScheduleListCommand implements Callable<Integer> {
  @ParentCommand private ScheduleCommand schedule;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    AntreanCli cli = schedule.cli();
    try (AntreanClient client = cli.connect()) {
      List<Schedule> schedules = client.schedules().list();
      if (json) {
        cli.out()
            .println(
                JsonOutput.print(ListSchedulesResponse.newBuilder().addAllSchedules(schedules)));
      } else {
        ScheduleText.table(schedules, cli.out());
      }
    }
    return ExitCodes.OK;
  }
}
