package io.antrean.client;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Makes a call through {@link StatusTranslation#call} and, while the coordinator answers {@link
 * OverloadedException}, waits for its retry hint and calls again, at most {@code maxRetries} times.
 * A refused call did nothing, so repeating it is safe for every RPC. Stateless and thread-safe.
 */
final class OverloadRetry {
  /** The wait when the coordinator sent no hint. */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(1);

  /** The longest wait honoured; a larger hint is cut to this. */
  static final Duration MAX_WAIT = Duration.ofSeconds(30);

  /** Waits; the production one sleeps. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  static final Sleeper THREAD_SLEEP = d -> Thread.sleep(d.toMillis());

  private final int maxRetries;
  private final Sleeper sleeper;

  OverloadRetry(int maxRetries, Sleeper sleeper) {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be at least 0, got " + maxRetries);
    }
    this.maxRetries = maxRetries;
    this.sleeper = sleeper;
  }

  int maxRetries() {
    return maxRetries;
  }

  /**
   * Calls {@code rpc}, retrying after an overload refusal.
   *
   * @throws OverloadedException the last refusal, after {@code maxRetries} retries, or at once if
   *     the thread is interrupted while waiting (the interrupt flag is then set again)
   * @throws AntreanException any other failure, at once
   */
  <T> T call(Supplier<T> rpc) {
    for (int retry = 0; ; retry++) {
      try {
        return StatusTranslation.call(rpc);
      } catch (OverloadedException e) {
        if (retry >= maxRetries) {
          throw e;
        }
        Duration wait = e.retryAfter().orElse(DEFAULT_WAIT);
        if (wait.compareTo(MAX_WAIT) > 0) {
          wait = MAX_WAIT;
        }
        try {
          sleeper.sleep(wait);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }
}
