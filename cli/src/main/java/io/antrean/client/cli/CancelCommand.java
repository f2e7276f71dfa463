package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.CancelJobResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean cancel ID}: cancels one job and prints what became of it. */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    header = "Cancels one job.",
    description = {
      "A pending job is cancelled at once and the command prints 'job ID CANCELLED'. A running job"
          + " is flagged: the command prints 'job ID RUNNING: cancel requested; the worker stops"
          + " it at its next heartbeat', and the job ends CANCELLED unless its handler finishes"
          + " first (antrean get ID tells which).",
      "A job that already finished is refused with reason JOB_FINISHED (exit code 1).",
      "With --json, prints the CancelJobResponse ({\"job\": ...}) instead."
    })
final class CancelCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;

  @Parameters(index = "0", paramLabel = "ID", description = "The job id.")
  private long id;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  @Override
  public Integer call() {
    try (AntreanClient client = cli.connect()) {
      Job job = client.cancelJob(id);
      if (json) {
        cli.out().println(JsonOutput.print(CancelJobResponse.newBuilder().setJob(job)));
      } else {
        cli.out().println(describe(job));
      }
    }
    return ExitCodes.OK;
  }

  /** One line saying what the cancellation did to {@code job}. */
  static String describe(Job job) {
    String line = "job " + job.getId() + " " + JobText.state(job.getState());
    if (job.getState() == JobState.JOB_STATE_RUNNING && job.getCancelRequested()) {
      return line + ": cancel requested; the worker stops it at its next heartbeat";
    }
    return line;
  }
}
