package io.antrean.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code antrean schedule create NAME ...}: creates a schedule and prints it. */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    header = "Creates a schedule and prints it with its next fire times.",
    description = {
      "Give exactly one of --cron and --every. A bad name, cron, time zone, interval or job is"
          + " refused with a field violation (exit code 1).",
      "With --json, prints the Schedule as JSON instead."
    })
final class ScheduleCreateCommand implements Callable<Integer> {
  @ParentCommand private ScheduleCommand schedule;
  @Mixin private ScheduleOptions options;

  @Option(names = "--json", description = "Print the schedule as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    return schedule.printAnswer(json, schedules -> schedules.create(options.definition()));
  }
}
