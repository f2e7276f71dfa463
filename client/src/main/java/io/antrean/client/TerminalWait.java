package io.antrean.client;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import java.time.Duration;
import java.util.function.LongSupplier;
import javax.annotation.Nullable;

/**
 * {@link AntreanClient#awaitTerminal} on top of {@link AntreanClient#watchJob}: watches until a
 * terminal snapshot, watching again after an {@code UNAVAILABLE} (a coordinator stopping or
 * unreachable) while time remains.
 */
final class TerminalWait {
  private static final long RETRY_PAUSE_MILLIS = 200;

  private TerminalWait() {}

  static Job await(AntreanClient client, long id, Duration timeout, LongSupplier nanoTime) {
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
    long deadline = nanoTime.getAsLong() + timeout.toNanos();
    @Nullable Job last = null;
    while (true) {
      long left = deadline - nanoTime.getAsLong();
      if (left <= 0) {
        throw new AwaitTimeoutException(id, timeout, last, null);
      }
      try (JobWatch watch = client.watchJob(id, Duration.ofNanos(left))) {
        while (watch.hasNext()) {
          last = watch.next();
          if (isTerminal(last.getState())) {
            return last;
          }
        }
      } catch (UnavailableException e) {
        if (e.isDeadlineExceeded() || deadline - nanoTime.getAsLong() <= 0) {
          throw new AwaitTimeoutException(id, timeout, last, e);
        }
        pause();
      }
    }
  }

  private static void pause() {
    try {
      Thread.sleep(RETRY_PAUSE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a job", e);
    }
  }

  static boolean isTerminal(JobState state) {
    return state == JobState.JOB_STATE_SUCCEEDED
        || state == JobState.JOB_STATE_FAILED
        || state == JobState.JOB_STATE_CANCELLED;
  }
}
