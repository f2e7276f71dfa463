package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.Job;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code antrean samples}: enqueues the demo's sample jobs, follows them to the end and checks that
 * each ended as the worker's handlers should make it end.
 */
@Command(
    name = "samples",
    mixinStandardHelpOptions = true,
    header = "Runs the demo's sample jobs and checks how they end.",
    description =
        "Enqueues three email.send, two report.build, one flaky (succeeds on its third attempt)"
            + " and one email.send without recipient (fails permanently); needs workers with the"
            + " standard handlers. Prints each state change, then a table of expected and actual"
            + " outcomes. Exits 0 when every job ended as expected, 1 otherwise.")
final class SamplesCommand implements Callable<Integer> {
  private static final int MAX_ERROR_CHARS = 50;

  @ParentCommand private AntreanCli cli;

  @Option(
      names = "--queue",
      defaultValue = "default",
      description = "The queue to use (default: ${DEFAULT-VALUE}).")
  private String queue;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      converter = DurationConverter.class,
      description = "How long to wait for all jobs to finish (default: ${DEFAULT-VALUE}).")
  private Duration timeout;

  @Option(
      names = "--poll-interval",
      paramLabel = "DURATION",
      defaultValue = "100ms",
      converter = DurationConverter.class,
      hidden = true)
  private Duration pollInterval;

  @Override
  public Integer call() {
    PrintWriter out = cli.out();
    try (AntreanClient client = cli.connect()) {
      List<TrackedSample> samples = enqueueAll(client, out);
      boolean finished = new SampleWatcher(client, out, pollInterval).watch(samples, timeout);
      if (!finished) {
        out.println("gave up waiting after " + timeout.toMillis() + " ms");
      }
      return printReport(samples, out) ? ExitCodes.OK : ExitCodes.FAILURE;
    } finally {
      out.flush();
    }
  }

  private List<TrackedSample> enqueueAll(AntreanClient client, PrintWriter out) {
    List<TrackedSample> samples = new ArrayList<>();
    for (SampleJob sample : SampleJob.standardSet(queue)) {
      Job job = client.enqueue(sample.spec()).getJob();
      samples.add(new TrackedSample(sample, job));
      out.printf(
          "job %d %s: enqueued, expect %s%n", job.getId(), job.getType(), sample.expectation());
      out.flush();
    }
    return samples;
  }

  private static boolean printReport(List<TrackedSample> samples, PrintWriter out) {
    TextTable table =
        new TextTable("ID", "TYPE", "EXPECTED", "ACTUAL", "ATTEMPTS", "OK", "LAST ERROR");
    int met = 0;
    for (TrackedSample sample : samples) {
      Job job = sample.latest();
      boolean ok = sample.metExpectation();
      met += ok ? 1 : 0;
      table.add(
          job.getId(),
          job.getType(),
          sample.sample().expectation(),
          JobText.state(job.getState()),
          job.getAttempts(),
          ok ? "yes" : "NO",
          JobText.orDash(JobText.oneLine(job.getLastError(), MAX_ERROR_CHARS)));
    }
    out.println();
    table.print(out);
    boolean allMet = met == samples.size();
    out.println(
        allMet
            ? "all " + met + " sample jobs ended as expected"
            : (samples.size() - met)
                + " of "
                + samples.size()
                + " sample jobs did not end as expected");
    return allMet;
  }
}
