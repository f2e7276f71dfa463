package io.antrean.worker.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Bounded polling for tests that wait on real concurrency; assert what it returns. */
public final class Polling {
  private Polling() {}

  /**
   * Checks {@code condition} every few milliseconds; true as soon as it holds, false at timeout.
   */
  public static boolean await(Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
    }
    return true;
  }
}
