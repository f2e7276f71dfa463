package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import java.util.Locale;

/**
 * A job's {@code last_error}: how a failure reads there, and how the dead-letter search folds it.
 */
public final class ErrorText {
  private ErrorText() {}

  /** The job's {@code last_error}: "type: message", or whichever of the two is known. */
  public static String describe(Failure failure) {
    String type = failure.errorType();
    String message = failure.message();
    if (type != null && message != null) {
      return type + ": " + message;
    }
    if (type != null || message != null) {
      return type != null ? type : message;
    }
    return failure.kind() == ErrorKind.PERMANENT ? "permanent failure" : "retryable failure";
  }

  /**
   * Case folding for the dead-letter search, the same for a stored error and a search term: upper
   * then lower, so "ß" and "SS" meet at "ss". Locale-independent.
   */
  public static String fold(String text) {
    return text.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
  }
}
