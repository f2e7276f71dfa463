package io.antrean.benchmarks;

/**
 * Thrown from a benchmark's setup when something it needs (an embedded server) is not available
 * here. JMH reports that benchmark as failed with this one-line message and goes on with the
 * others; no number is produced for it. Carries no stack trace: the message says it all.
 */
public final class BenchmarkSkipped extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BenchmarkSkipped(String message) {
    super(message, null, false, false);
  }
}
