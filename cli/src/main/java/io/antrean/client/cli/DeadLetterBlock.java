package io.antrean.client.cli;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.antrean.client.internal.ProtoTime;
import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.Job;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The readable form of one dead letter that {@code antrean dlq show} prints: the job's fields, its
 * whole payload (JSON pretty-printed), then every attempt with its error message and stack trace in
 * full, since this is what an operator reads to decide between redrive and purge.
 */
final class DeadLetterBlock {
  private static final String PAYLOAD_MARGIN = "  ";
  private static final String ATTEMPT_MARGIN = "      ";
  private static final String TRACE_MARGIN = "        ";

  private DeadLetterBlock() {}

  static void print(Job job, PrintWriter out) {
    out.println("dead letter " + job.getId());
    JobBlock.field(out, "queue", job.getQueue());
    JobBlock.field(out, "type", job.getType());
    JobBlock.field(out, "state", JobText.state(job.getState()));
    JobBlock.field(out, "priority", String.valueOf(job.getPriority()));
    JobBlock.field(
        out, "attempts", job.getAttempts() + " (lease expiries: " + job.getLeaseExpiries() + ")");
    JobBlock.field(out, "retry policy", JobBlock.retryPolicy(job.getRetryPolicy()));
    JobBlock.field(out, "created", JobText.instant(job.getCreatedAt()));
    JobBlock.field(out, "failed at", JobText.instant(job.getFinishedAt()));
    JobBlock.optional(out, "idempotency key", job.getIdempotencyKey());
    JobBlock.optional(out, "last error", JobText.oneLine(job.getLastError(), 200));
    printPayload(job.getPayload(), job.getContentType(), out);
    printAttempts(job, out);
  }

  private static void printPayload(ByteString payload, String contentType, PrintWriter out) {
    String type = contentType.isEmpty() ? "application/json" : contentType;
    out.println("payload (" + type + ", " + payload.size() + " bytes):");
    if (payload.isEmpty()) {
      out.println(PAYLOAD_MARGIN + "(empty)");
      return;
    }
    if (!JobText.isText(type)) {
      out.println(PAYLOAD_MARGIN + "(binary; --json shows it base64-encoded)");
      return;
    }
    String text = payload.toString(StandardCharsets.UTF_8);
    if (type.contains("json") && JsonOutput.jsonProblem(text) == null) {
      text = JsonPretty.print(text);
    }
    indented(out, PAYLOAD_MARGIN, text);
  }

  private static void printAttempts(Job job, PrintWriter out) {
    if (job.getHistoryCount() == 0) {
      out.println("attempts: none recorded");
      return;
    }
    out.println("attempts:");
    for (Attempt attempt : job.getHistoryList()) {
      if (attempt.getOutcome() == AttemptOutcome.ATTEMPT_OUTCOME_REDRIVEN) {
        out.println(
            "  -- REDRIVEN at "
                + redrivenAt(attempt)
                + ": the entries below belong to the job's next life");
        continue;
      }
      printAttempt(attempt, out);
    }
  }

  private static void printAttempt(Attempt attempt, PrintWriter out) {
    out.println("  #" + attempt.getAttempt() + "  " + JobText.outcome(attempt.getOutcome()));
    attemptField(out, "worker", JobText.orDash(attempt.getWorkerId()));
    attemptField(out, "leased at", JobText.instant(attempt.getLeasedAt()));
    attemptField(out, "ended at", endedAt(attempt.getLeasedAt(), attempt.getEndedAt()));
    if (attempt.getErrorKind() != ErrorKind.ERROR_KIND_UNSPECIFIED
        || !attempt.getErrorType().isEmpty()) {
      attemptField(
          out,
          "error",
          (JobText.errorKind(attempt.getErrorKind()) + " " + attempt.getErrorType()).strip());
    }
    if (!attempt.getErrorMessage().isEmpty()) {
      out.println(ATTEMPT_MARGIN + "message:");
      indented(out, TRACE_MARGIN, attempt.getErrorMessage());
    }
    if (!attempt.getStackTrace().isEmpty()) {
      out.println(ATTEMPT_MARGIN + "stack trace:");
      indented(out, TRACE_MARGIN, attempt.getStackTrace());
    }
  }

  /** A redrive entry is not an attempt; whichever of its times the coordinator set. */
  private static String redrivenAt(Attempt redrive) {
    String ended = JobText.instant(redrive.getEndedAt());
    return ended.equals("-") ? JobText.instant(redrive.getLeasedAt()) : ended;
  }

  private static String endedAt(Timestamp leasedAt, Timestamp endedAt) {
    String ended = JobText.instant(endedAt);
    if (ended.equals("-") || JobText.instant(leasedAt).equals("-")) {
      return ended;
    }
    java.time.Duration took =
        java.time.Duration.between(ProtoTime.fromProto(leasedAt), ProtoTime.fromProto(endedAt));
    return ended + " (after " + JobText.duration(ProtoTime.toProto(took)) + ")";
  }

  private static void attemptField(PrintWriter out, String name, String value) {
    out.printf("%s%-10s %s%n", ATTEMPT_MARGIN, name + ":", value);
  }

  private static void indented(PrintWriter out, String margin, String text) {
    text.strip().lines().forEach(line -> out.println((margin + line).stripTrailing()));
  }
}
