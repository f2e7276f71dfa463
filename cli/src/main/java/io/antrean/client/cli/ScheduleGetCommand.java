package io.antrean.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code antrean schedule get NAME}: Prints one schedule with its next fire times and last fire.
 */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    header = "Prints one schedule with its next fire times and last fire.",
    description = {
      "An unknown name fails with NOT_FOUND (exit code 1).",
      "With --json, prints the Schedule as JSON instead."
    })
final class ScheduleGetCommand implements Callable<Integer> {
  @ParentCommand private ScheduleCommand schedule;

  @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name.")
  private String name;

  @Option(names = "--json", description = "Print the schedule as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    return schedule.printAnswer(json, schedules -> schedules.get(name));
  }
}
