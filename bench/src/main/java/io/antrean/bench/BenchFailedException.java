package io.antrean.bench;

/**
 * A scenario could not be measured for a reason other than a refused producer call: the jobs did
 * not all run within {@code --wait}, some failed, or an in-process worker's call failed. The
 * command prints the message and exits 1.
 */
final class BenchFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  BenchFailedException(String message) {
    super(message);
  }

  BenchFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
