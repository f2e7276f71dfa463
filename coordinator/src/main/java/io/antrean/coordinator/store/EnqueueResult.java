package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Job;

/**
 * One stored (or found) job.
 *
 * @param deduplicated true when an idempotency key matched an existing job and nothing was stored
 */
public record EnqueueResult(Job job, boolean deduplicated) {}
