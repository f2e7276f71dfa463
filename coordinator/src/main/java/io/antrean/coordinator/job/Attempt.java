package io.antrean.coordinator.job;

import java.time.Instant;
import javax.annotation.Nullable;

/**
 * One entry of a job's attempt history.
 *
 * @param attempt the job's attempts counter when the entry was written
 * @param workerId the worker that held (or claimed to hold) the lease
 * @param fencingToken the token of that lease
 * @param leasedAt when the lease was granted
 * @param endedAt when the attempt ended; null while it runs
 * @param outcome how it ended
 * @param errorKind set for failures
 * @param errorType the error's class or code
 * @param errorMessage the error's message
 * @param stackTrace cut to the coordinator's size limit
 */
public record Attempt(
    int attempt,
    String workerId,
    long fencingToken,
    Instant leasedAt,
    @Nullable Instant endedAt,
    AttemptOutcome outcome,
    @Nullable ErrorKind errorKind,
    @Nullable String errorType,
    @Nullable String errorMessage,
    @Nullable String stackTrace) {}
