package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Objects;

/**
 * A dead letter's next life: PENDING at {@code runAt}, with attempts, lease expiries and releases
 * back to zero, the cancellation flag, result and progress cleared. The fencing token stays, so the
 * next lease's token is higher than every earlier one; the last error stays until the next attempt
 * replaces it.
 */
public record Redrive(Instant runAt) {
  public Redrive {
    Objects.requireNonNull(runAt, "runAt");
  }
}
