package io.antrean.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean schedule resume NAME}: Resumes a schedule from its first due time after now. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    header = "Resumes a schedule from its first due time after now.",
    description = {
      "An unknown name fails with NOT_FOUND (exit code 1).",
      "With --json, prints the Schedule as JSON instead."
    })
final class ScheduleResumeCommand implements Callable<Integer> {
  @ParentCommand private ScheduleCommand schedule;

  @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name.")
  private String name;

  @Option(names = "--json", description = "Print the schedule as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    return schedule.printAnswer(json, schedules -> schedules.resume(name));
  }
}
