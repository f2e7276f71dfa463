package io.antrean.coordinator.core;

import io.antrean.coordinator.store.HeartbeatResult;
import java.util.List;

/**
 * The answer to a heartbeat that may have been held open (see {@link JobScheduler#heartbeat(String,
 * List, java.time.Duration, java.time.Duration)}).
 *
 * @param results one per lease, as extended when the call came in
 * @param woken answered early because one of the worker's jobs was asked to cancel
 */
public record HeldHeartbeat(List<HeartbeatResult> results, boolean woken) {
  public HeldHeartbeat {
    results = List.copyOf(results);
  }
}
