package io.antrean.coordinator.store;

import java.util.Arrays;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One job of a batched completion: the lease it ran under and its result.
 *
 * @param lease the fencing token and lease id presented
 * @param result the result bytes, or null for none; copied on the way in and out
 * @param resultContentType the result's content type, or null
 */
public record Completion(
    long jobId, LeaseClaim lease, @Nullable byte[] result, @Nullable String resultContentType) {

  public Completion {
    Objects.requireNonNull(lease, "lease");
    result = result == null ? null : result.clone();
  }

  /** The result's length in bytes, 0 for none, without copying it. */
  public int resultSize() {
    return result == null ? 0 : result.length;
  }

  /** The fencing token presented. */
  public long fencingToken() {
    return lease.fencingToken();
  }

  @Override
  @Nullable
  public byte[] result() {
    return result == null ? null : result.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Completion c
        && jobId == c.jobId
        && lease.equals(c.lease)
        && Arrays.equals(result, c.result)
        && Objects.equals(resultContentType, c.resultContentType);
  }

  @Override
  public int hashCode() {
    return Objects.hash(jobId, lease, Arrays.hashCode(result), resultContentType);
  }

  @Override
  public String toString() {
    return "Completion[jobId=" + jobId + ", fencingToken=" + lease.fencingToken() + "]";
  }
}
