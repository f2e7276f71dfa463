package io.antrean.coordinator.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A worker's request for jobs, before validation.
 *
 * @param types only these job types; empty for any
 * @param maxJobs 0 means 1
 * @param leaseTtl null for the default
 * @param maxWait null for the default long-poll wait; zero answers at once
 */
public record LeaseCommand(
    String workerId,
    String queue,
    List<String> types,
    int maxJobs,
    @Nullable Duration leaseTtl,
    @Nullable Duration maxWait) {
  public LeaseCommand {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(queue, "queue");
    types = List.copyOf(types);
  }
}
