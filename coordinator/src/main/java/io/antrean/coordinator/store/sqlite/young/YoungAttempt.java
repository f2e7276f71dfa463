package io.antrean.coordinator.store.sqlite.young;

import java.time.Instant;
import javax.annotation.Nullable;

/**
 * The first attempt of a young job, once leased: its lease, and its result once it succeeded. A
 * young job has at most this one: any other end of an attempt (a failure, a release, an expiry) is
 * made on the database's rows, after a fold.
 *
 * @param workerId the lease's holder
 * @param fencingToken the lease's token, {@link YoungJobs#FIRST_TOKEN}
 * @param leaseIdSha256 the digest of the lease id only the holder was told
 * @param leasedAt when the lease was granted
 * @param expiresAt when the lease runs out unless a heartbeat extends it; after success, when it
 *     would have
 * @param progress what the holder's last heartbeat said of its progress, if anything
 * @param finishedAt when the holder completed the job; null while it runs
 * @param result what the holder completed it with
 * @param resultContentType the result's content type
 */
public record YoungAttempt(
    String workerId,
    long fencingToken,
    byte[] leaseIdSha256,
    Instant leasedAt,
    Instant expiresAt,
    @Nullable String progress,
    @Nullable Instant finishedAt,
    @Nullable byte[] result,
    @Nullable String resultContentType) {

  /** Whether the holder completed the job. */
  public boolean succeeded() {
    return finishedAt != null;
  }

  YoungAttempt extended(Instant newExpiry, @Nullable String newProgress) {
    return new YoungAttempt(
        workerId,
        fencingToken,
        leaseIdSha256,
        leasedAt,
        newExpiry,
        newProgress == null ? progress : newProgress,
        null,
        null,
        null);
  }

  YoungAttempt succeeded(
      Instant now, @Nullable byte[] withResult, @Nullable String withResultContentType) {
    return new YoungAttempt(
        workerId,
        fencingToken,
        leaseIdSha256,
        leasedAt,
        expiresAt,
        progress,
        now,
        withResult,
        withResultContentType);
  }
}
