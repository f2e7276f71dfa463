package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.client.JobWatch;
import io.antrean.client.UnavailableException;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.WatchJobResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code antrean watch ID}: follows a job through WatchJob until it ends. */
@Command(
    name = "watch",
    mixinStandardHelpOptions = true,
    header = "Follows a job until it ends, one line per change.",
    description = {
      "Prints the job's state, then a line per change, e.g."
          + " 'job 7 email.send: PENDING -> RUNNING (attempt 1, worker w1)', until it is"
          + " SUCCEEDED, FAILED or CANCELLED.",
      "With --json, prints each WatchJobResponse as one line of JSON instead.",
      "Exits 0 when the job succeeded, "
          + ExitCodes.JOB_FAILED
          + " when it failed"
          + " (dead-lettered), "
          + ExitCodes.JOB_CANCELLED
          + " when it was cancelled, "
          + ExitCodes.UNAVAILABLE
          + " when --timeout passed first."
    })
final class WatchCommand implements Callable<Integer> {
  @ParentCommand private AntreanCli cli;

  @Parameters(index = "0", paramLabel = "ID", description = "The job id.")
  private long id;

  @Option(names = "--json", description = "Print each snapshot as one line of JSON.")
  private boolean json;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "1h",
      converter = DurationConverter.class,
      description = "How long to watch before giving up (default: ${DEFAULT-VALUE}).")
  private Duration timeout;

  @Override
  public Integer call() {
    @Nullable Job last = null;
    try (AntreanClient client = cli.connect();
        JobWatch watch = client.watchJob(id, timeout)) {
      while (watch.hasNext()) {
        Job job = watch.next();
        if (json) {
          cli.out().println(oneLine(JsonOutput.print(WatchJobResponse.newBuilder().setJob(job))));
        } else {
          cli.out().println(line(last, job));
        }
        cli.out().flush();
        last = job;
      }
    } catch (UnavailableException e) {
      if (!e.isDeadlineExceeded() || last == null) {
        throw e;
      }
      cli.err()
          .printf(
              "antrean: job %d still %s after %s%n", id, JobText.state(last.getState()), timeout);
      return ExitCodes.UNAVAILABLE;
    }
    return exitCode(last);
  }

  private static int exitCode(@Nullable Job last) {
    if (last == null) {
      return ExitCodes.FAILURE;
    }
    return switch (last.getState()) {
      case JOB_STATE_SUCCEEDED -> ExitCodes.OK;
      case JOB_STATE_FAILED -> ExitCodes.JOB_FAILED;
      case JOB_STATE_CANCELLED -> ExitCodes.JOB_CANCELLED;
      default -> ExitCodes.FAILURE;
    };
  }

  /**
   * {@code job 7 email.send: PENDING}, then {@code job 7 email.send: PENDING -> RUNNING (attempt 1,
   * worker w1)} for each change.
   */
  static String line(@Nullable Job before, Job after) {
    StringBuilder b =
        new StringBuilder("job ").append(after.getId()).append(' ').append(after.getType());
    b.append(": ");
    if (before != null) {
      b.append(JobText.state(before.getState())).append(" -> ");
    }
    b.append(JobText.state(after.getState()));
    String detail = detail(after);
    if (!detail.isEmpty()) {
      b.append(" (").append(detail).append(')');
    }
    return b.toString();
  }

  private static String detail(Job job) {
    StringBuilder d = new StringBuilder();
    if (job.getAttempts() > 0) {
      d.append("attempt ").append(job.getAttempts());
    }
    JobState state = job.getState();
    if (state == JobState.JOB_STATE_RUNNING && !job.getLease().getWorkerId().isEmpty()) {
      d.append(", worker ").append(job.getLease().getWorkerId());
    }
    if ((state == JobState.JOB_STATE_FAILED || state == JobState.JOB_STATE_PENDING)
        && !job.getLastError().isEmpty()) {
      d.append(d.length() > 0 ? ", " : "").append("last error: ").append(job.getLastError());
    }
    if (job.getCancelRequested() && state == JobState.JOB_STATE_RUNNING) {
      d.append(d.length() > 0 ? ", " : "").append("cancel requested");
    }
    return d.toString();
  }

  private static String oneLine(String json) {
    return json.replaceAll("\\s*\\n\\s*", " ");
  }
}
