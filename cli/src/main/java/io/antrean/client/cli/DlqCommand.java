package io.antrean.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code antrean dlq}: the group of dead-letter queue commands; it does nothing by itself. */
@Command(
    name = "dlq",
    mixinStandardHelpOptions = true,
    header = "Inspects, redrives and purges the dead-letter queue.",
    description = {
      "The dead-letter queue holds the FAILED jobs, each with its payload and every attempt.",
      "Filter options, where a command takes them: --queue Q, --type T, --error TEXT (a"
          + " case-insensitive part of the last error), --since WHEN and --until WHEN (a duration"
          + " before now such as 30m, 1h, 2d, or an RFC 3339 time such as 2026-11-02T10:00:00Z)."
    },
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      DlqListCommand.class,
      DlqShowCommand.class,
      DlqRedriveCommand.class,
      DlqPurgeCommand.class
    })
final class DlqCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;
  @Spec private CommandSpec spec;

  /** Runs when no dlq command is given: a usage error. */
  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "Missing dlq command: list, show, redrive or purge");
  }

  /** The top-level command, for the connection, the clock and the output streams. */
  AntreanCli cli() {
    return cli;
  }
}
