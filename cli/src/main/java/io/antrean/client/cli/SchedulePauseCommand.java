package io.antrean.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean schedule pause NAME}: Pauses a schedule: it fires nothing until resumed. */
@Command(
    name = "pause",
    mixinStandardHelpOptions = true,
    header = "Pauses a schedule: it fires nothing until resumed.",
    description = {
      "An unknown name fails with NOT_FOUND (exit code 1).",
      "With --json, prints the Schedule as JSON instead."
    })
final class SchedulePauseCommand implements Callable<Integer> {
  @ParentCommand private ScheduleCommand schedule;

  @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name.")
  private String name;

  @Option(names = "--json", description = "Print the schedule as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    return schedule.printAnswer(json, schedules -> schedules.pause(name));
  }
}
