package io.antrean.client.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code antrean queue}: the group of queue control commands; it does nothing by itself. */
@Command(
    name = "queue",
    mixinStandardHelpOptions = true,
    header = "Lists queues, pauses and resumes them, and sets their concurrency limits.",
    description = {
      "A paused queue still accepts jobs, but no worker leases any of them until it is resumed;"
          + " jobs already running carry on. The pause is durable and holds for every coordinator"
          + " sharing the store.",
      "A bad queue name is refused with a field violation on 'queue' (exit code 1)."
    },
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      QueueListCommand.class,
      QueuePauseCommand.class,
      QueueResumeCommand.class,
      QueueLimitCommand.class
    })
final class QueueCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;
  @Spec private CommandSpec spec;

  /** Runs when no queue command is given: a usage error. */
  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "Missing queue command: list, pause, resume or limit");
  }

  /** The top-level command, for the connection and the output streams. */
  AntreanCli cli() {
    return cli;
  }
}
