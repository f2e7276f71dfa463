package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.client.Schedules;
import io.antrean.proto.v1.Schedule;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code antrean schedule}: the group of schedule commands; it does nothing by itself. */
@Command(
    name = "schedule",
    mixinStandardHelpOptions = true,
    header = "Creates, changes, lists, pauses and deletes durable schedules.",
    description = {
      "A schedule enqueues one job per due time of a cron expression (in a time zone) or a fixed"
          + " interval, exactly once however many coordinators share the store.",
      "A bad definition is refused with field violations (exit code 1)."
    },
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      ScheduleCreateCommand.class,
      ScheduleUpdateCommand.class,
      ScheduleListCommand.class,
      ScheduleGetCommand.class,
      SchedulePauseCommand.class,
      ScheduleResumeCommand.class,
      ScheduleDeleteCommand.class
    })
final class ScheduleCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;
  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(),
        "Missing schedule command: create, update, list, get, pause, resume or delete");
  }

  AntreanCli cli() {
    return cli;
  }

  /**
   * Connects, runs one schedule call and prints the schedule it answers: as JSON with {@code json},
   * else as text.
   */
  int printAnswer(boolean json, Function<Schedules, Schedule> call) {
    try (AntreanClient client = cli.connect()) {
      Schedule s = call.apply(client.schedules());
      if (json) {
        cli.out().println(JsonOutput.print(s));
      } else {
        ScheduleText.describe(s, cli.out());
      }
    }
    return ExitCodes.OK;
  }
}
