package io.antrean.coordinator.core;

import java.time.Instant;
import java.util.List;
import javax.annotation.Nullable;

/**
 * What a redrive did.
 *
 * @param redrivenIds in the order they become leasable
 * @param skippedIds ids given that were unknown or not dead-lettered
 * @param lastRunAt when the last redriven job becomes leasable; null if none was redriven
 */
public record RedriveOutcome(
    List<Long> redrivenIds, List<Long> skippedIds, @Nullable Instant lastRunAt) {
  public RedriveOutcome {
    redrivenIds = List.copyOf(redrivenIds);
    skippedIds = List.copyOf(skippedIds);
  }
}
