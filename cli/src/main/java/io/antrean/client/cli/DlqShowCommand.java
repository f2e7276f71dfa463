package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.Job;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean dlq show ID}: one dead letter with its payload and every attempt in full. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    header =
        "Prints one dead letter: its payload and every attempt with its error and stack trace.",
    description = {
      "JSON payloads are pretty-printed; other text payloads are printed as they are, binary ones"
          + " as their size. A job that exists but is not dead-lettered is refused with reason"
          + " NOT_DEAD_LETTERED (exit code 1).",
      "With --json, prints the GetDeadLetterResponse ({\"job\": ...}, payload base64-encoded)"
          + " instead."
    })
final class DlqShowCommand implements Callable<Integer> {
  @ParentCommand private DlqCommand dlq;

  @Parameters(index = "0", paramLabel = "ID", description = "The dead letter's job id.")
  private long id;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    AntreanCli cli = dlq.cli();
    try (AntreanClient client = cli.connect()) {
      Job job = client.deadLetters().get(id);
      if (json) {
        cli.out().println(JsonOutput.print(GetDeadLetterResponse.newBuilder().setJob(job)));
      } else {
        DeadLetterBlock.print(job, cli.out());
      }
    }
    return ExitCodes.OK;
  }
}
