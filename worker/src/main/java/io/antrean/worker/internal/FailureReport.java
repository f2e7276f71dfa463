package io.antrean.worker.internal;

import io.antrean.proto.v1.ErrorKind;
import io.antrean.worker.ErrorClassifier;
import io.antrean.worker.FailureKind;
import io.antrean.worker.RetryableException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a failed attempt tells the coordinator: the classified kind, the error's class and message,
 * the stack trace cut to {@value #MAX_STACK_TRACE_BYTES} bytes, and the retry delay the handler
 * asked for, if any.
 */
record FailureReport(
    ErrorKind kind, String errorType, String message, String stackTrace, Duration retryAfter) {
  private static final Logger log = LoggerFactory.getLogger(FailureReport.class);

  static final int MAX_STACK_TRACE_BYTES = 8 * 1024;
  static final int MAX_MESSAGE_BYTES = 4 * 1024;

  /** Bounds the walk along a cause chain, which may in theory be cyclic. */
  private static final int MAX_CAUSE_DEPTH = 64;

  /**
   * Describes {@code error} for the coordinator. A classifier that throws or answers null is a bug
   * in user code; it is logged and the standard table decides instead.
   */
  static FailureReport of(Throwable error, ErrorClassifier classifier) {
    FailureKind kind = classify(error, classifier);
    Duration retryAfter = kind == FailureKind.RETRYABLE ? retryAfterOf(error) : null;
    String message = error.getMessage() == null ? "" : error.getMessage();
    return new FailureReport(
        kind == FailureKind.RETRYABLE
            ? ErrorKind.ERROR_KIND_RETRYABLE
            : ErrorKind.ERROR_KIND_PERMANENT,
        error.getClass().getName(),
        Utf8Text.truncate(message, MAX_MESSAGE_BYTES),
        Utf8Text.truncate(stackTraceOf(error), MAX_STACK_TRACE_BYTES),
        retryAfter);
  }

  private static FailureKind classify(Throwable error, ErrorClassifier classifier) {
    try {
      FailureKind kind = classifier.classify(error);
      if (kind != null) {
        return kind;
      }
      log.error(
          "error classifier returned null for {}; using the standard table", error.getClass());
    } catch (RuntimeException e) {
      log.error("error classifier failed on {}; using the standard table", error.getClass(), e);
    }
    return ErrorClassifier.standard().classify(error);
  }

  /** The delay asked for by the outermost {@link RetryableException} in the chain, or null. */
  private static Duration retryAfterOf(Throwable error) {
    Throwable current = error;
    for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH; depth++) {
      if (current instanceof RetryableException retryable) {
        return retryable.retryAfter().orElse(null);
      }
      current = current.getCause();
    }
    return null;
  }

  private static String stackTraceOf(Throwable error) {
    StringWriter out = new StringWriter();
    try (PrintWriter writer = new PrintWriter(out)) {
      error.printStackTrace(writer);
    }
    return out.toString();
  }
}
