package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.PauseQueueResponse;
import io.antrean.proto.v1.QueueInfo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean queue pause Q}: pauses one queue and prints its state. */
@Command(
    name = "pause",
    mixinStandardHelpOptions = true,
    header = "Pauses a queue: it still accepts jobs, but none is leased until it is resumed.",
    description = {
      "Prints 'queue Q paused at TIME; jobs are accepted but not leased'. Jobs already running"
          + " carry on. Pausing a paused queue changes nothing and keeps its original pause time; a"
          + " queue with no jobs yet may be paused.",
      "An empty or bad queue name is refused with a field violation on 'queue' (exit code 1).",
      "With --json, prints the PauseQueueResponse ({\"queue\": ...}) instead."
    })
final class QueuePauseCommand implements Callable<Integer> {
  @ParentCommand private QueueCommand queue;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue's name.")
  private String name;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    AntreanCli cli = queue.cli();
    try (AntreanClient client = cli.connect()) {
      QueueInfo info = client.pauseQueue(name);
      if (json) {
        cli.out().println(JsonOutput.print(PauseQueueResponse.newBuilder().setQueue(info)));
      } else {
        cli.out().println(QueueText.describe(info));
      }
    }
    return ExitCodes.OK;
  }
}
