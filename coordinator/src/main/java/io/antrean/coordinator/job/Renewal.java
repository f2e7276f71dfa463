package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Objects;

/**
 * A heartbeat's effect on a lease it holds: the lease now expires at {@code expiresAt}; {@code
 * cancelRequested} tells the worker to stop (the job is cancelled when its lease ends).
 */
public record Renewal(Instant expiresAt, boolean cancelRequested) {
  public Renewal {
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
