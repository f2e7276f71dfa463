package io.antrean.coordinator.core;

import java.time.Duration;
import java.util.Set;

/** A validated Lease request: what to lease and for how long; the expiry is set at lease time. */
record LeasePlan(String workerId, String queue, Set<String> types, int maxJobs, Duration ttl) {
  LeasePlan {
    types = Set.copyOf(types);
  }
}
