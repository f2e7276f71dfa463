package io.antrean.coordinator.store;

import java.time.Instant;

/** A lease currently held: enough to schedule its expiry. */
public record LeaseRef(long jobId, long fencingToken, Instant expiresAt) {}
