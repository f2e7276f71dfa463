package io.antrean.coordinator.store;

import javax.annotation.Nullable;

/**
 * One lease presented in a heartbeat.
 *
 * @param progress a progress note to store on the job, or null to keep the last one
 */
public record LeaseRenewal(long jobId, long fencingToken, @Nullable String progress) {}
