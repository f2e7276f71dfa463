package io.antrean.worker.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter for one retrying caller: the n-th consecutive failure waits a
 * random time between half and all of {@code min(max, initial * 2^(n-1))}. The jitter spreads a
 * fleet of workers that lost the coordinator at the same moment; the lower bound keeps a tight loop
 * from forming.
 *
 * <p>Not thread-safe: each loop owns its own instance.
 */
final class Backoff {
  private final long initialNanos;
  private final long maxNanos;
  private final DoubleSupplier random;
  private int failures;

  Backoff(Duration initial, Duration max) {
    this(initial, max, () -> ThreadLocalRandom.current().nextDouble());
  }

  /** For tests: {@code random} returns values in [0, 1). */
  Backoff(Duration initial, Duration max, DoubleSupplier random) {
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("initial backoff must be positive: " + initial);
    }
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("max backoff " + max + " is below initial " + initial);
    }
    this.initialNanos = initial.toNanos();
    this.maxNanos = max.toNanos();
    this.random = random;
  }

  /** Records one more failure and returns how long to wait before the next try. */
  Duration nextDelay() {
    long ceiling = ceilingNanos(failures);
    failures = Math.min(failures + 1, 62);
    long half = ceiling / 2;
    return Duration.ofNanos(half + (long) (random.getAsDouble() * (ceiling - half)));
  }

  /** Forgets past failures after a success. */
  void reset() {
    failures = 0;
  }

  /** How many failures in a row have been recorded since the last success. */
  int failures() {
    return failures;
  }

  private long ceilingNanos(int priorFailures) {
    long ceiling = initialNanos;
    for (int i = 0; i < priorFailures && ceiling < maxNanos; i++) {
      ceiling = ceiling > maxNanos / 2 ? maxNanos : ceiling * 2;
    }
    return Math.min(ceiling, maxNanos);
  }
}
