package io.antrean.coordinator.store;

import java.time.Instant;
import javax.annotation.Nullable;

/**
 * The answer for one lease of a heartbeat.
 *
 * @param expiresAt the new expiry; null when the lease is lost
 */
public record HeartbeatResult(
    long jobId, long fencingToken, Status status, @Nullable Instant expiresAt) {

  /** What happened to the lease. */
  public enum Status {
    /** Extended. */
    EXTENDED,
    /** Gone: expired and taken back, or the job finished. The worker must stop. */
    LOST,
    /** Extended, but the job's cancellation was requested. The worker should stop and release. */
    CANCEL_REQUESTED
  }
}
