package io.antrean.client.cli;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.antrean.client.internal.ProtoTime;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.JobState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/** Renders job fields for people: short enum names, readable times, payloads as text. */
final class JobText {
  private static final int MAX_PAYLOAD_CHARS = 2000;

  private JobText() {}

  /** {@code SUCCEEDED} rather than {@code JOB_STATE_SUCCEEDED}. */
  static String state(JobState state) {
    return stripPrefix(state.name(), "JOB_STATE_");
  }

  /** {@code FAILED_RETRYABLE} rather than {@code ATTEMPT_OUTCOME_FAILED_RETRYABLE}. */
  static String outcome(AttemptOutcome outcome) {
    return stripPrefix(outcome.name(), "ATTEMPT_OUTCOME_");
  }

  /** {@code PERMANENT} rather than {@code ERROR_KIND_PERMANENT}. */
  static String errorKind(ErrorKind kind) {
    return stripPrefix(kind.name(), "ERROR_KIND_");
  }

  /** {@code cancel} or {@code dead-letter}, as {@code enqueue --on-dependency-failure} takes it. */
  static String dependencyFailure(DependencyFailure policy) {
    return policy == DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER ? "dead-letter" : "cancel";
  }

  /** Whether a job in this state will not change any more. */
  static boolean isTerminal(JobState state) {
    return state == JobState.JOB_STATE_SUCCEEDED
        || state == JobState.JOB_STATE_FAILED
        || state == JobState.JOB_STATE_CANCELLED;
  }

  /** An ISO-8601 instant in UTC, or {@code -} for an unset timestamp. */
  static String instant(Timestamp timestamp) {
    if (timestamp.getSeconds() == 0 && timestamp.getNanos() == 0) {
      return "-";
    }
    Instant instant = ProtoTime.fromProto(timestamp);
    return instant.toString();
  }

  /** A short duration such as {@code 250ms}, {@code 4.2s} or {@code 3m07s}. */
  static String duration(com.google.protobuf.Duration proto) {
    Duration d = ProtoTime.fromProto(proto);
    if (d.compareTo(Duration.ofSeconds(1)) < 0) {
      return d.toMillis() + "ms";
    }
    if (d.compareTo(Duration.ofMinutes(1)) < 0) {
      return String.format("%.1fs", d.toMillis() / 1000.0);
    }
    if (d.compareTo(Duration.ofHours(1)) < 0) {
      return String.format("%dm%02ds", d.toMinutes(), d.toSecondsPart());
    }
    return String.format("%dh%02dm", d.toHours(), d.toMinutesPart());
  }

  /**
   * A window such as {@code 1h}, {@code 15m}, {@code 90s} or {@code 1h30m}, in the largest whole
   * unit that fits; for column headers.
   */
  static String window(com.google.protobuf.Duration proto) {
    Duration d = ProtoTime.fromProto(proto);
    if (d.toSecondsPart() != 0 || d.toNanosPart() != 0 || d.isZero()) {
      return d.toNanosPart() == 0 ? d.getSeconds() + "s" : duration(proto);
    }
    if (d.toMinutesPart() != 0) {
      return d.toHours() == 0 ? d.toMinutes() + "m" : d.toHours() + "h" + d.toMinutesPart() + "m";
    }
    return d.toHours() + "h";
  }

  /** {@code count} and {@code noun}, with an {@code s} unless the count is one. */
  static String count(long count, String noun) {
    return count + " " + (count == 1 ? noun : noun + "s");
  }

  /** Text payloads as text (cut to a screenful), anything else as its size. */
  static String payload(ByteString bytes, String contentType) {
    if (bytes.isEmpty()) {
      return "(empty)";
    }
    if (!isText(contentType)) {
      return "(" + bytes.size() + " bytes)";
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    return text.length() <= MAX_PAYLOAD_CHARS
        ? text
        : text.substring(0, MAX_PAYLOAD_CHARS) + "... (" + bytes.size() + " bytes)";
  }

  /** One line of at most {@code max} characters: line breaks become spaces, the rest is cut. */
  static String oneLine(String text, int max) {
    String line = text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    return line.length() <= max ? line : line.substring(0, Math.max(0, max - 3)) + "...";
  }

  /** {@code -} for empty text, so table columns never look missing. */
  static String orDash(String text) {
    return text.isEmpty() ? "-" : text;
  }

  /** Whether a payload of this MIME type (empty: JSON) can be shown as text. */
  static boolean isText(String contentType) {
    String type = contentType.isEmpty() ? "application/json" : contentType;
    return type.startsWith("text/") || type.contains("json") || type.contains("xml");
  }

  private static String stripPrefix(String name, String prefix) {
    return name.startsWith(prefix) ? name.substring(prefix.length()) : name;
  }
}
