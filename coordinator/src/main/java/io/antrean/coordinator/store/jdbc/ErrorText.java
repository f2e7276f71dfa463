package io.antrean.coordinator.store.jdbc;

import java.util.Locale;

/**
 * How the dead-letter search folds a job's {@code last_error} ({@link
 * io.antrean.coordinator.job.Failure#summary}) and a search term.
 */
public final class ErrorText {
  private ErrorText() {}

  /**
   * Case folding for the dead-letter search, the same for a stored error and a search term: upper
   * then lower, so "ß" and "SS" meet at "ss". Locale-independent.
   */
  public static String fold(String text) {
    return text.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
  }
}
