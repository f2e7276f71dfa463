package io.antrean.client.cli;

import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.RetryPolicy;
import java.io.PrintWriter;
import java.util.stream.Collectors;

/** The readable form of one job that {@code antrean get} prints: fields, then history. */
final class JobBlock {
  private static final int MAX_ERROR_CHARS = 120;

  private JobBlock() {}

  static void print(Job job, PrintWriter out) {
    out.println("job " + job.getId());
    field(out, "queue", job.getQueue());
    field(out, "type", job.getType());
    field(
        out,
        "state",
        JobText.state(job.getState()) + (job.getCancelRequested() ? " (cancel requested)" : ""));
    field(out, "priority", String.valueOf(job.getPriority()));
    field(out, "attempts", job.getAttempts() + " (lease expiries: " + job.getLeaseExpiries() + ")");
    field(out, "retry policy", retryPolicy(job.getRetryPolicy()));
    field(out, "created", JobText.instant(job.getCreatedAt()));
    field(out, "run at", JobText.instant(job.getRunAt()));
    field(out, "updated", JobText.instant(job.getUpdatedAt()));
    field(out, "finished", JobText.instant(job.getFinishedAt()));
    optional(out, "idempotency key", job.getIdempotencyKey());
    if (job.getDependsOnCount() > 0) {
      field(
          out,
          "depends on",
          job.getDependsOnList().stream().map(String::valueOf).collect(Collectors.joining(", "))
              + " (on failure: "
              + JobText.dependencyFailure(job.getOnDependencyFailure())
              + ")");
    }
    optional(out, "progress", job.getProgress());
    if (job.hasLease()) {
      field(
          out,
          "lease",
          "worker "
              + job.getLease().getWorkerId()
              + ", token "
              + job.getLease().getFencingToken()
              + ", expires "
              + JobText.instant(job.getLease().getExpiresAt()));
    }
    field(out, "payload", JobText.payload(job.getPayload(), job.getContentType()));
    if (!job.getResult().isEmpty()) {
      field(out, "result", JobText.payload(job.getResult(), job.getResultContentType()));
    }
    optional(out, "last error", job.getLastError());
    printHistory(job, out);
  }

  private static void printHistory(Job job, PrintWriter out) {
    if (job.getHistoryCount() == 0) {
      out.println("history: none");
      return;
    }
    out.println("history:");
    TextTable table = new TextTable("  #", "worker", "leased at", "ended at", "outcome", "error");
    for (Attempt attempt : job.getHistoryList()) {
      table.add(
          "  " + attempt.getAttempt(),
          JobText.orDash(attempt.getWorkerId()),
          JobText.instant(attempt.getLeasedAt()),
          JobText.instant(attempt.getEndedAt()),
          JobText.outcome(attempt.getOutcome()),
          error(attempt));
    }
    table.print(out);
  }

  private static String error(Attempt attempt) {
    if (attempt.getErrorType().isEmpty() && attempt.getErrorMessage().isEmpty()) {
      return "-";
    }
    String kind = JobText.errorKind(attempt.getErrorKind());
    String text =
        attempt.getErrorType().isEmpty()
            ? attempt.getErrorMessage()
            : attempt.getErrorType() + ": " + attempt.getErrorMessage();
    return JobText.oneLine(kind + " " + text, MAX_ERROR_CHARS);
  }

  /** The retry policy in one line; {@code coordinator defaults} when nothing is overridden. */
  static String retryPolicy(RetryPolicy policy) {
    if (policy.equals(RetryPolicy.getDefaultInstance())) {
      return "coordinator defaults";
    }
    return String.format(
        "max attempts %s, backoff %s x%s up to %s, max lease expiries %s",
        orDefault(policy.getMaxAttempts()),
        policy.hasInitialBackoff() ? JobText.duration(policy.getInitialBackoff()) : "default",
        policy.getBackoffMultiplier() == 0
            ? "default"
            : String.valueOf(policy.getBackoffMultiplier()),
        policy.hasMaxBackoff() ? JobText.duration(policy.getMaxBackoff()) : "default",
        orDefault(policy.getMaxLeaseExpiries()));
  }

  private static String orDefault(int value) {
    return value == 0 ? "default" : String.valueOf(value);
  }

  /** A {@link #field} line, left out when {@code value} is empty. */
  static void optional(PrintWriter out, String name, String value) {
    if (!value.isEmpty()) {
      field(out, name, value);
    }
  }

  /** One {@code name: value} line, values aligned. */
  static void field(PrintWriter out, String name, String value) {
    out.printf("  %-16s %s%n", name + ":", value);
  }
}
