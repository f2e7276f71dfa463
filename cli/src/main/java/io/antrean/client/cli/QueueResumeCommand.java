package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.ResumeQueueResponse;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean queue resume Q}: resumes one queue and prints its state. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    header = "Resumes a paused queue: its ready jobs become leasable at once.",
    description = {
      "Prints 'queue Q resumed; its jobs are leased again'. Resuming a queue that is not"
          + " paused changes nothing.",
      "An empty or bad queue name is refused with a field violation on 'queue' (exit code 1).",
      "With --json, prints the ResumeQueueResponse ({\"queue\": ...}) instead."
    })
final class QueueResumeCommand implements Callable<Integer> {
  @ParentCommand private QueueCommand queue;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue's name.")
  private String name;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    AntreanCli cli = queue.cli();
    try (AntreanClient client = cli.connect()) {
      QueueInfo info = client.resumeQueue(name);
      if (json) {
        cli.out().println(JsonOutput.print(ResumeQueueResponse.newBuilder().setQueue(info)));
      } else {
        cli.out().println(QueueText.describe(info));
      }
    }
    return ExitCodes.OK;
  }
}
